import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from '../../support/eventually';
import { packedPackage, REPOSITORY } from '../../support/packed-package';

/** The repository's root. */
export const REPO = REPOSITORY;

/**
 * What the installed package needs at run time but leaves to the project (its peer
 * dependencies), and typescript for `dev`: linked from this repository's install rather than
 * fetched, so the install needs the registry (or npm's cache) only for ajv and jose.
 */
const LINKED = ['reflect-metadata', 'tsyringe', 'class-validator', 'class-transformer', 'typescript'];

/** What a finished command printed, and how it exited. */
export interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The packed package installed into a temporary project, and ways to run its binary there. */
export interface InstalledCli {
  /** The temporary project: the binary's working directory. */
  readonly project: string;
  /** node_modules/.bin/phantom-mcp in the project. */
  readonly bin: string;
  /** A module compiled into dist/spec/cli/fixtures, as a path relative to the project. */
  fixture(name: string): string;
  /** Runs the binary to its end, in the project (or `cwd`), with this process's environment (or `env`, the whole of it). */
  run(args: readonly string[], options?: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<Ran>;
  /** A long-running command (serve, dev), its stderr collected. */
  start(args: readonly string[]): Running;
}

export interface Running {
  readonly child: ChildProcess;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stderr from `fromIndex` on, within `withinMs`. */
  waitFor(pattern: RegExp, withinMs?: number, fromIndex?: number): Promise<RegExpExecArray>;
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

const run = promisify(execFile);
let installing: Promise<InstalledCli> | undefined;

/** Packs and installs once per mocha run, whichever spec file asks first. */
export function installedCli(): Promise<InstalledCli> {
  return (installing ??= install());
}

async function install(): Promise<InstalledCli> {
  const root = mkdtempSync(join(tmpdir(), 'phantom-mcp-cli-spec-'));
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  const tarball = await packedPackage();
  const project = join(root, 'project');
  mkdirSync(join(project, 'node_modules'), { recursive: true });
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'cli-spec-project', version: '1.0.0', private: true }));
  // --omit=peer: the peers are linked below, so npm neither fetches nor replaces them.
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=peer', tarball], { cwd: project });
  for (const name of LINKED) symlinkSync(join(REPO, 'node_modules', name), join(project, 'node_modules', name), 'dir');
  const bin = join(project, 'node_modules', '.bin', 'phantom-mcp');
  return {
    project,
    bin,
    fixture: (name) => relative(project, join(REPO, 'dist', 'spec', 'cli', 'fixtures', `${name}.js`)),
    run: (args, options = {}) => ran(bin, args, options.cwd ?? project, options.env),
    start: (args) => running(spawn(bin, args, { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] })),
  };
}

function ran(bin: string, args: readonly string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    execFile(bin, args, { cwd, timeout: 30_000, ...(env ? { env } : {}) }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      if (error && code === null) reject(error);
      else resolve({ code, stdout, stderr });
    });
  });
}

function running(child: ChildProcess): Running {
  let text = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stderr: () => text,
    async waitFor(pattern, withinMs = 20_000, fromIndex = 0) {
      let match: RegExpExecArray | null = null;
      try {
        await eventually(`stderr to show ${pattern}`, () => (match = pattern.exec(text.slice(fromIndex))) !== null, withinMs, 50);
      } catch (error) {
        throw new Error(`${(error as Error).message}; it shows: ${text.slice(fromIndex)}`);
      }
      return match!;
    },
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
