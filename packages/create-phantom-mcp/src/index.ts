#!/usr/bin/env node
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** Template files whose names npm would not ship as they are, and the names they get in the project. */
const RENAMED: Readonly<Record<string, string>> = Object.freeze({ gitignore: '.gitignore', 'mocharc.json': '.mocharc.json' });

/** Files whose text names the project or the phantom-mcp version. */
const FILLED = new Set(['package.json', 'README.md', 'server.ts']);

/** What npm accepts as a package name (lower case, URL-safe, at most 214 characters). */
const PACKAGE_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

const USAGE = `Usage: npm create phantom-mcp@latest <directory> [-- --name <package name>]
       create-phantom-mcp <directory> [--name <package name>] [--phantom <version>]

Creates an MCP server project in <directory> (new, or empty): one tool, one resource, one spec,
with the TypeScript settings phantom-mcp needs. Then: cd <directory> && npm install && npm test.

  --name      the package name (default: the directory's name)
  --phantom   the phantom-mcp version to depend on (default: ^<this generator's version>)
  --help      this text`;

interface Options {
  readonly directory: string;
  readonly name: string;
  readonly phantom: string;
}

/** The options, or the exit code and message of bad usage. */
function parse(argv: readonly string[], ownVersion: string): Options | { readonly code: number; readonly message: string } {
  if (argv.includes('--help') || argv.includes('-h')) return { code: 0, message: USAGE };
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const flag = arg.slice(2);
    const value = argv[i + 1];
    if ((flag !== 'name' && flag !== 'phantom') || value === undefined || value.startsWith('--')) return { code: 2, message: `Unknown or incomplete option ${arg}\n\n${USAGE}` };
    flags[flag] = value;
    i += 1;
  }
  if (positional.length !== 1) return { code: 2, message: `Give one directory\n\n${USAGE}` };
  const directory = resolve(positional[0]);
  const name = flags.name ?? basename(directory).toLowerCase();
  if (!PACKAGE_NAME.test(name) || name.length > 214) return { code: 2, message: `"${name}" is no valid package name: give one with --name\n\n${USAGE}` };
  return { directory, name, phantom: flags.phantom ?? `^${ownVersion}` };
}

/** Copies the template into `directory`, naming the project; the files written, relative to it. */
function generate(template: string, { directory, name, phantom }: Options): string[] {
  const written: string[] = [];
  const copy = (from: string, to: string, relative: string) => {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) {
      const source = join(from, entry);
      const target = RENAMED[entry] ?? entry;
      if (statSync(source).isDirectory()) {
        copy(source, join(to, target), join(relative, target));
      } else if (FILLED.has(entry)) {
        writeFileSync(join(to, target), readFileSync(source, 'utf8').replaceAll('__PACKAGE_NAME__', name).replaceAll('__PHANTOM_VERSION__', phantom));
        written.push(join(relative, target));
      } else {
        copyFileSync(source, join(to, target));
        written.push(join(relative, target));
      }
    }
  };
  copy(template, directory, '');
  return written;
}

function main(argv: readonly string[]): number {
  const root = join(__dirname, '..');
  const ownVersion = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const options = parse(argv, ownVersion);
  if ('code' in options) {
    (options.code === 0 ? process.stdout : process.stderr).write(`${options.message}\n`);
    return options.code;
  }
  if (existsSync(options.directory) && readdirSync(options.directory).length > 0) {
    process.stderr.write(`${options.directory} is not empty: give a new or empty directory\n`);
    return 1;
  }
  const written = generate(join(root, 'template'), options);
  process.stdout.write(`Created ${options.name} in ${options.directory}:\n${written.map((file) => `  ${file}`).join('\n')}\n\nNext:\n  cd ${options.directory}\n  npm install\n  npm test      # builds with tsc, runs spec/ with mocha\n  npm start     # serves over stdio; npm start -- --http --port 3000 for HTTP\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
