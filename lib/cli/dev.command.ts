import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { valueFlag } from './arguments';
import { EXIT, type Command, type CliIo } from './command';
import { SERVE_FLAGS, SERVE_FLAGS_USAGE, serveSettings } from './serve.command';
import { modulePath, ServerModuleError } from './server-module';
import { StdinRelay } from './stdin-relay';

/** tsc's line at the end of each watch build: `Found 0 errors. Watching for file changes.` */
const BUILD_DONE = /Found (\d+) errors?\. Watching for file changes\./;

export const devCommand: Command = {
  name: 'dev',
  summary: 'rebuild with tsc --watch and restart the server after each good build',
  usage: `Usage: phantom-mcp dev <module> [--project <tsconfig>] [--http] [--port <n>] [--host <h>] [--export <name>]

Runs the project's own TypeScript compiler in watch mode and serves the module (as serve does,
same flags) after the first good build, restarting it after each good build that follows, with
one line on stderr per restart; a build with errors keeps the last good server running.
tsc's output goes to stderr, so stdout stays the MCP pipe over stdio. Over stdio a restart ends
the client's session (the client reconnects), and the end of stdin (the client quit) stops tsc
and the server and exits 0; over --http with a fixed --port the URL stays the same.

  --project <p>   the tsconfig.json (or its folder) to build (default: the working directory's)
${SERVE_FLAGS_USAGE}
`,
  positionals: ['module'],
  flags: { ...SERVE_FLAGS, project: 'value' },
  async run(args, io) {
    const settings = serveSettings(args, io);
    // The module may not be built yet, but a directory or a .ts file will never serve.
    modulePath(args.positionals.module, io.cwd, { mayBeMissing: true });
    const project = resolve(io.cwd, valueFlag(args, 'project') ?? '.');
    const tsc = compilerOf(project, io.cwd);
    const serveArgs = ['serve', args.positionals.module, ...passedOn(args.flags)];
    return new DevLoop(io, tsc, project, serveArgs, settings.http ? undefined : new StdinRelay(io.input)).run();
  },
};

/**
 * The project's own tsc (typescript resolved from the project), run with this node: `npx tsc`
 * would fetch an unrelated package named "tsc" from the registry when typescript is missing.
 */
function compilerOf(project: string, cwd: string): string {
  try {
    return createRequire(join(project, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    try {
      return createRequire(join(cwd, 'package.json')).resolve('typescript/bin/tsc');
    } catch {
      throw new ServerModuleError(`typescript is not installed in ${project}: npm install --save-dev typescript`);
    }
  }
}

function passedOn(flags: Readonly<Record<string, string | true>>): string[] {
  return Object.entries(flags).filter(([name]) => name !== 'project').flatMap(([name, value]) => (value === true ? [`--${name}`] : [`--${name}`, value]));
}

/** One watcher and the server it restarts. */
class DevLoop {
  private server?: ChildProcess;
  private builds = 0;
  /** Restarts run one after another, so two quick builds never leave two servers. */
  private restarting: Promise<void> = Promise.resolve();
  private stopping = false;

  /** `relay`: over stdio, the client's pipe, handed to each server in turn. */
  constructor(
    private readonly io: CliIo,
    private readonly tsc: string,
    private readonly project: string,
    private readonly serveArgs: readonly string[],
    private readonly relay: StdinRelay | undefined,
  ) {}

  async run(): Promise<number> {
    const watcher = spawn(process.execPath, [this.tsc, '-p', this.project, '--watch', '--preserveWatchOutput'], { cwd: this.io.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const watcherExit = once(watcher, 'exit') as Promise<[number | null]>;
    this.io.err(`phantom-mcp dev: watching with tsc (pid ${watcher.pid})\n`);
    for (const stream of [watcher.stdout!, watcher.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => this.fromCompiler(line));
    }
    const stopAsked = new Promise<string>((done) => {
      const onSignal = (signal: NodeJS.Signals) => {
        if (this.stopping) process.exit(1);
        done(signal);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      void this.relay?.ended.then(() => done('stdin ended'));
    });
    const first = await Promise.race([watcherExit, stopAsked]);
    if (typeof first === 'string') {
      this.stopping = true;
      this.io.err(`phantom-mcp dev: ${first}; stopping tsc and the server\n`);
      if (watcher.exitCode === null && watcher.signalCode === null) watcher.kill('SIGTERM');
      // Waiting for both exits reaps them: nothing is left behind once dev has exited.
      await Promise.all([watcherExit, this.restarting.then(() => this.stopServer())]);
      return EXIT.ok;
    }
    const [code] = first;
    await this.restarting.then(() => this.stopServer());
    this.io.err(`phantom-mcp dev: tsc exited (${String(code)})\n`);
    return EXIT.failed;
  }

  private fromCompiler(line: string): void {
    this.io.err(`${line}\n`);
    const done = BUILD_DONE.exec(line);
    if (!done || this.stopping) return;
    if (done[1] !== '0') {
      this.io.err(`phantom-mcp dev: the build has errors; ${this.server ? 'the last good build keeps running' : 'waiting for a good build'}\n`);
      return;
    }
    this.restarting = this.restarting.then(() => this.restart());
  }

  private async restart(): Promise<void> {
    await this.stopServer();
    if (this.stopping) return;
    this.builds += 1;
    const child = spawn(process.execPath, [join(__dirname, 'main.js'), ...this.serveArgs], { cwd: this.io.cwd, stdio: [this.relay ? 'pipe' : 'inherit', 'inherit', 'inherit'] });
    this.server = child;
    if (this.relay) {
      // A line written as the server exits fails with EPIPE: its exit is what gets reported.
      child.stdin!.on('error', () => undefined);
      this.relay.to(child.stdin!);
    }
    child.once('exit', (code, signal) => {
      if (this.server === child) {
        this.server = undefined;
        this.relay?.to(undefined);
      }
      if (!this.stopping && !child.killed) this.io.err(`phantom-mcp dev: the server exited (${signal ?? code}); waiting for the next good build\n`);
    });
    this.io.err(`phantom-mcp dev: ${this.builds === 1 ? 'started' : 'restarted'} the server after build ${this.builds} (pid ${child.pid})\n`);
  }

  /** SIGTERM, as serve expects: calls in flight finish first. */
  private async stopServer(): Promise<void> {
    const child = this.server;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}
