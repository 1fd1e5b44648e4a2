import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The option named in each row of the README's Limits table. */
function limitRows(): string[] {
  const section = README.slice(README.indexOf('\n## Limits\n'));
  const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| Option |')));
  return table.split('\n').filter((line) => line.startsWith('| `')).map((line) => /^\| `([^`]+)`/.exec(line)![1]);
}

describe('the README', () => {
  it('holds no merge-conflict markers', () => {
    expect(README).not.to.match(/^(<{7}|>{7}|={7})( |$)/m);
  });

  describe('Limits table', () => {
    it('names each limit once', () => {
      const rows = limitRows();
      expect(rows.length).to.be.greaterThan(20);
      expect(rows.filter((name, i) => rows.indexOf(name) !== i)).to.deep.equal([]);
    });

    it('names only options that exist', () => {
      const declared = sources(join(ROOT, 'lib')).map((file) => readFileSync(file, 'utf8')).join('\n');
      const missing = limitRows().map((name) => name.split('.').pop()!).filter((name) => !new RegExp(`readonly ${name}\\??:`).test(declared));
      expect(missing).to.deep.equal([]);
    });
  });
});
