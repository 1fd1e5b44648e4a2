import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { REPO } from './installed-cli';

const COMPILED_FIXTURES = join(REPO, 'dist', 'spec', 'cli', 'fixtures');

/** The package.json of the bundled fixture package: what `bundle` reads, and what it must leave out. */
export const BUNDLED_PACKAGE_JSON = {
  name: '@acme/weather-bundle',
  version: '1.2.0',
  description: 'Weather for desktop clients',
  author: 'Ada Lovelace <ada@example.com> (https://example.com/ada)',
  license: 'MIT',
  keywords: ['weather', 'mcp'],
  homepage: 'https://example.com/weather',
  repository: 'github:acme/weather',
  engines: { node: '>=20.19' },
  main: 'dist/server.js',
  files: ['dist'],
  // tsyringe and class-transformer come as phantom-mcp's peer dependencies.
  dependencies: { 'phantom-mcp': '*', 'reflect-metadata': '*', 'class-validator': '*' },
  devDependencies: { typescript: '*' },
};

/**
 * Writes a package at `dir` as its author would have it after `tsc`: package.json, the compiled
 * module at dist/server.js (the `bundled-weather` fixture, or the `grown` one with a tool more)
 * with its map and declarations, the TypeScript source, a README, a .env and notes/ (none of
 * which but the README may be bundled). The compiled fixtures import the framework by a
 * relative path; here they require "phantom-mcp" by name, as a user's module does, so that it
 * resolves to the phantom-mcp installed in the project above (the packed one).
 */
export function writeBundledPackage(dir: string, options: { readonly json?: Record<string, unknown>; readonly grown?: boolean } = {}): string {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  mkdirSync(join(dir, 'notes'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...BUNDLED_PACKAGE_JSON, ...options.json }, null, 2));
  const byName = (file: string) => readFileSync(join(COMPILED_FIXTURES, file), 'utf8').replace(/require\("\.\.\/\.\.\/\.\.\/lib"\)/g, 'require("phantom-mcp")');
  writeFileSync(join(dir, 'dist', 'bundled-weather.js'), byName('bundled-weather.js'));
  writeFileSync(join(dir, 'dist', 'server.js'), byName(options.grown ? 'bundled-weather-grown.js' : 'bundled-weather.js'));
  copyFileSync(join(COMPILED_FIXTURES, 'bundled-weather.js.map'), join(dir, 'dist', 'server.js.map'));
  copyFileSync(join(COMPILED_FIXTURES, 'bundled-weather.d.ts'), join(dir, 'dist', 'server.d.ts'));
  copyFileSync(join(REPO, 'spec', 'cli', 'fixtures', 'bundled-weather.ts'), join(dir, 'src', 'server.ts'));
  writeFileSync(join(dir, 'README.md'), '# weather\n');
  writeFileSync(join(dir, '.env'), 'WEATHER_API_KEY=do-not-ship\n');
  writeFileSync(join(dir, 'notes', 'todo.txt'), 'not published\n');
  return join(dir, 'dist', 'server.js');
}

/** A valid PNG of one transparent pixel, made here (signature, IHDR, IDAT, IEND). */
export function onePixelPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 0, 0, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
