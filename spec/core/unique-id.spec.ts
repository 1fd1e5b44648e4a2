import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { uniqueId } from '../../lib/core/unique-id';

const COMPILED = join(__dirname, '..', '..', 'lib', 'core', 'unique-id.js');

/** Ids made by a fresh node process, as another replica would make them. */
async function idsOfAnotherProcess(): Promise<string[]> {
  const script = `const { uniqueId } = require(${JSON.stringify(COMPILED)}); process.stdout.write(JSON.stringify([uniqueId(), uniqueId()]));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
  return JSON.parse(stdout) as string[];
}

const prefixOf = (id: string) => id.slice(0, id.lastIndexOf('-'));

describe('uniqueId', () => {
  context('when called many times in one process', () => {
    it('never repeats an id', () => {
      const ids = Array.from({ length: 100_000 }, () => uniqueId());
      expect(new Set(ids).size).to.equal(ids.length);
    });

    it('keeps the process\'s prefix: 48 random bits as hex', () => {
      const [a, b] = [uniqueId(), uniqueId()];
      expect(prefixOf(a)).to.match(/^[0-9a-f]{12}$/);
      expect(prefixOf(b)).to.equal(prefixOf(a));
    });
  });

  context('when two processes make ids (two replicas)', () => {
    it('gives each process its own prefix, so their ids never meet', async () => {
      const [first, second] = await Promise.all([idsOfAnotherProcess(), idsOfAnotherProcess()]);
      expect(prefixOf(first[0])).to.equal(prefixOf(first[1]));
      expect(prefixOf(first[0])).not.to.equal(prefixOf(second[0]));
      expect(prefixOf(first[0])).not.to.equal(prefixOf(uniqueId()));
      expect([...first, ...second]).to.have.length(new Set([...first, ...second]).size);
    });
  });
});
