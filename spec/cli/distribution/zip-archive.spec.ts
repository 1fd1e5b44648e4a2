import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BundleRefusal } from '../../../lib/cli/distribution/bundle-refusal';
import { zipArchive, type ZipEntry } from '../../../lib/cli/distribution/zip-archive';

describe('zipArchive', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'zip-archive-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  const entries: ZipEntry[] = [
    { path: 'manifest.json', mode: 0o644, data: Buffer.from('{"a":1}\n'.repeat(50)) },
    { path: 'server/bin/run.js', mode: 0o755, data: Buffer.from('#!/usr/bin/env node\n') },
    { path: 'server/ünïcödé.txt', mode: 0o600, data: Buffer.from([0, 1, 2, 3]) },
    { path: 'server/empty', mode: 0o644, data: Buffer.alloc(0) },
  ];

  context('when unzip reads it', () => {
    it('gives back every file with its bytes, its folders and its mode', () => {
      const file = join(folder, 'a.zip');
      writeFileSync(file, zipArchive(entries));
      const into = join(folder, 'out');
      execFileSync('unzip', ['-q', file, '-d', into]);
      for (const entry of entries) {
        expect(readFileSync(join(into, entry.path)).equals(entry.data), entry.path).to.equal(true);
        expect(statSync(join(into, entry.path)).mode & 0o777, entry.path).to.equal(entry.mode);
      }
    });
  });

  context('when it is made twice from the same files', () => {
    it('is the same bytes: no clock or file time goes in', () => {
      expect(zipArchive(entries).equals(zipArchive(entries.map((entry) => ({ ...entry, data: Buffer.from(entry.data) }))))).to.equal(true);
    });
  });

  context('when it would need zip64', () => {
    it('refuses more than 65,535 entries', () => {
      const many = Array.from({ length: 0x10000 }, (_, at) => ({ path: `f${at}`, mode: 0o644, data: Buffer.alloc(0) }));
      expect(() => zipArchive(many)).to.throw(BundleRefusal, 'at most 65535');
    });
  });
});
