import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');

describe('README.md', () => {
  it('holds no merge-conflict markers', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).not.to.match(/^(<{7}|>{7}|={7})( |$)/m);
  });
});
