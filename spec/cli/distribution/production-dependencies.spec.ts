import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BundleRefusal } from '../../../lib/cli/distribution/bundle-refusal';
import { productionDependencies } from '../../../lib/cli/distribution/production-dependencies';

/** Writes `<dir>/package.json`. */
function packageAt(dir: string, json: Record<string, unknown>): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(json));
}

describe('productionDependencies', () => {
  let root: string;
  const modules = (...path: string[]) => join(root, 'node_modules', ...path);

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'production-dependencies-'));
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const laidOut = () => productionDependencies(root).map(({ name, version, at }) => `${at} ${name}@${version}`).sort();

  context('when two dependencies need different versions of one package', () => {
    it('keeps the first in the top node_modules and nests the other under its dependent, as installed', () => {
      packageAt(root, { name: 'app', version: '1.0.0', dependencies: { a: '1', b: '1' }, devDependencies: { tool: '1' } });
      packageAt(modules('a'), { name: 'a', version: '1.0.0', dependencies: { c: '1' } });
      packageAt(modules('c'), { name: 'c', version: '1.0.0' });
      packageAt(modules('b'), { name: 'b', version: '1.0.0', dependencies: { c: '2', g: '1' } });
      packageAt(modules('b', 'node_modules', 'c'), { name: 'c', version: '2.0.0', dependencies: { d: '1' } });
      // g sits under b, so it finds b's c (2.0.0): wherever it goes in the bundle, it must still.
      packageAt(modules('b', 'node_modules', 'g'), { name: 'g', version: '1.0.0', dependencies: { c: '2' } });
      packageAt(modules('d'), { name: 'd', version: '1.0.0' });
      packageAt(modules('tool'), { name: 'tool', version: '1.0.0' });
      expect(laidOut()).to.deep.equal([
        'node_modules/a a@1.0.0',
        'node_modules/b b@1.0.0',
        'node_modules/b/node_modules/c c@2.0.0',
        'node_modules/c c@1.0.0',
        'node_modules/d d@1.0.0',
        'node_modules/g g@1.0.0',
        'node_modules/g/node_modules/c c@2.0.0',
      ]);
    });
  });

  context('when a dependency is a link (a workspace, a linked peer)', () => {
    it('follows it to its real folder, and looks up its own dependencies from there', () => {
      const elsewhere = mkdtempSync(join(tmpdir(), 'production-dependencies-linked-'));
      try {
        packageAt(root, { name: 'app', version: '1.0.0', dependencies: { linked: '1' } });
        packageAt(join(elsewhere, 'node_modules', 'linked'), { name: 'linked', version: '1.0.0', dependencies: { helper: '1' } });
        packageAt(join(elsewhere, 'node_modules', 'helper'), { name: 'helper', version: '3.0.0' });
        mkdirSync(modules(), { recursive: true });
        symlinkSync(join(elsewhere, 'node_modules', 'linked'), modules('linked'), 'dir');
        expect(laidOut()).to.deep.equal(['node_modules/helper helper@3.0.0', 'node_modules/linked linked@1.0.0']);
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    });
  });

  context('when something it needs is not installed', () => {
    it('refuses a missing dependency, naming it and its dependent', () => {
      packageAt(root, { name: 'app', version: '1.0.0', dependencies: { a: '1' } });
      packageAt(modules('a'), { name: 'a', version: '1.0.0', dependencies: { gone: '1' } });
      expect(() => productionDependencies(root)).to.throw(BundleRefusal, 'a@1.0.0 depends on gone, which is not installed: run npm install');
    });

    it('leaves out a missing optional or peer dependency, and takes an installed peer', () => {
      packageAt(root, { name: 'app', version: '1.0.0', dependencies: { a: '1' }, optionalDependencies: { fsevents: '2' } });
      packageAt(modules('a'), { name: 'a', version: '1.0.0', peerDependencies: { present: '1', absent: '1' } });
      packageAt(modules('present'), { name: 'present', version: '1.0.0' });
      expect(laidOut()).to.deep.equal(['node_modules/a a@1.0.0', 'node_modules/present present@1.0.0']);
    });
  });
});
