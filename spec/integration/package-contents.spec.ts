import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/** The paths `npm pack` would put in the tarball, as npm itself lists them. */
function packedFiles(): string[] {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}

describe('the npm package', () => {
  const files = packedFiles();
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

  it('ships the MIT LICENSE that package.json names', () => {
    expect(manifest.license).to.equal('MIT');
    expect(files).to.include('LICENSE');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).to.match(/^MIT License\n\nCopyright \(c\) 2026 phantom-mcp contributors\n/);
  });

  it('ships every file package.json points to, and no specs or samples', () => {
    const targets = [manifest.main, manifest.types, ...Object.values(manifest.exports['.'] as Record<string, string>)];
    for (const target of targets) expect(files, target).to.include(posix.normalize(target));
    expect(files.filter((f) => /^(dist\/)?(spec|samples|bench)\//.test(f))).to.deep.equal([]);
  });

  it('has source maps whose sources are shipped or carried inside the map', () => {
    const maps = files.filter((f) => f.endsWith('.js.map'));
    expect(maps).not.to.be.empty;
    for (const map of maps) {
      const { sources, sourcesContent } = JSON.parse(readFileSync(join(ROOT, map), 'utf8')) as { sources: string[]; sourcesContent?: string[] };
      sources.forEach((source, i) => {
        const shipped = files.includes(posix.join(posix.dirname(map), source));
        expect(shipped || typeof sourcesContent?.[i] === 'string', `${map}: ${source}`).to.equal(true);
      });
    }
  });
});
