// The operation pipeline: a guard with an injected service, an interceptor, scopes, the built-in
// rate limit and request log, and per-call data on the Context. Included in docs/guide/pipeline.md;
// run by spec/docs/examples/pipeline.spec.ts.
import 'reflect-metadata';
// #region guard
import { injectable } from 'tsyringe';
import { ContextKey, ForbiddenError, type CanActivate, type ExecutionContext } from 'phantom-mcp';

/** What the authentication hook attached: `ctx.principal`. */
export interface Caller {
  readonly sub: string;
  readonly scopes?: readonly string[];
}

/** Who may edit: an ordinary service. */
@injectable()
export class Team {
  private readonly editors = new Set(['ada']);

  mayEdit(caller: Caller): boolean {
    return this.editors.has(caller.sub);
  }
}

/** The editor the guard let through: per-call data travels on the Context. */
export const EDITOR = new ContextKey<string>('editor');

@injectable()
export class EditorsOnly implements CanActivate {
  constructor(private readonly team: Team) {} // built by the server's container

  canActivate({ context, target }: ExecutionContext): boolean {
    const caller = context.principal as Caller | undefined;
    if (caller === undefined) return false; // -32003, a generic message
    // -32003 with this message:
    if (!this.team.mayEdit(caller)) throw new ForbiddenError(`${caller.sub} may not use ${target}`);
    context.set(EDITOR, caller.sub);
    return true;
  }
}
// #endregion guard

// #region interceptor
import type { CallHandler, Interceptor } from 'phantom-mcp';

/** Where durations go: a service shared by every call. */
@injectable()
export class Timings {
  readonly calls: { readonly call: string; readonly ms: number }[] = [];
}

@injectable()
export class Timed implements Interceptor {
  constructor(private readonly timings: Timings) {}

  async intercept({ method, target }: ExecutionContext, next: CallHandler): Promise<unknown> {
    const started = performance.now();
    try {
      return await next(); // the rest of the chain, then the handler: what it returned
    } finally {
      this.timings.calls.push({ call: `${method} ${target}`, ms: performance.now() - started });
    }
  }
}
// #endregion interceptor

// #region apply
import { IsString, MinLength } from 'class-validator';
import { Context, Field, RequireScopes, Tool, UseGuards, UseInterceptors } from 'phantom-mcp';

export class NoteArgs {
  @Field({ description: 'The note, e.g. welcome' }) @IsString() @MinLength(1) slug!: string;
  @Field({ description: 'What it says' }) @IsString() text!: string;
}

@UseGuards(EditorsOnly) // every tool, prompt and resource of this class
@injectable()
export class NoteWriter {
  readonly notes = new Map<string, string>();

  @RequireScopes('notes:write') // checked before any guard
  @UseInterceptors(Timed) // this tool only
  @Tool({ description: 'Write a note' })
  write(args: NoteArgs, ctx: Context): string {
    this.notes.set(args.slug, args.text);
    return `${ctx.get(EDITOR)} saved ${args.slug}`;
  }

  @Tool({ description: 'Count the notes', readOnly: true })
  count(): number {
    return this.notes.size;
  }
}
// #endregion apply

// #region server
import { container as rootContainer } from 'tsyringe';
import { PhantomServer, RateLimitGuard, RequestLoggingInterceptor, STDERR_DIAGNOSTICS, type Diagnostics } from 'phantom-mcp';

export interface NotesServerOptions {
  /** Where the request log goes (default: stderr). */
  readonly diagnostics?: Diagnostics;
  /** The rate limit's clock, in ms (default: `performance.now`): a test holds it still. */
  readonly now?: () => number;
}

export function createServer({ diagnostics = STDERR_DIAGNOSTICS, now }: NotesServerOptions = {}): PhantomServer {
  const container = rootContainer.createChildContainer();
  container.registerSingleton(Timings);
  const server = new PhantomServer({
    name: 'notes',
    version: '1.0.0',
    providers: [NoteWriter],
    container,
    diagnostics,
  });
  // Every operation: 20 calls per session at once, 2 more each second; one log line per call.
  return server.use(new RateLimitGuard({ burst: 20, perSecond: 2, now }), RequestLoggingInterceptor);
}
// #endregion server
