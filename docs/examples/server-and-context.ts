// The server's options, the Context a handler gets, and the start-up check of definitions.
// Included in docs/guide/server-and-context.md; run by spec/docs/examples/server-and-context.spec.ts.
import 'reflect-metadata';
// #region context
import { IsInt, Max, Min } from 'class-validator';
import { Context, ContextKey, Field, Tool, ToolError } from 'phantom-mcp';
import type { ExecutionContext } from 'phantom-mcp';

/** Per-call data: a guard stores it, the handler reads it. */
export const STARTED_AT = new ContextKey<number>('startedAt');

export class StampGuard {
  canActivate({ context }: ExecutionContext): boolean {
    context.set(STARTED_AT, Date.now());
    return true;
  }
}

export class CountdownArgs {
  @Field({ description: 'Seconds to count down from' })
  @IsInt() @Min(1) @Max(10)
  from!: number;
}

export class CountdownTools {
  @Tool({ description: 'Counts down, a step a second', readOnly: true })
  async countdown({ from }: CountdownArgs, ctx: Context) {
    await ctx.log.info(`counting down from ${from}`);
    for (let left = from; left > 0; left--) {
      // sent only if the client asked for progress
      await ctx.progress(from - left, from, `${left} to go`);
      await ctx.sleep(1000); // rejects once the call is cancelled
    }
    return { done: from, since: ctx.get(STARTED_AT) !== undefined };
  }

  @Tool({ description: 'Who is calling, and how', readOnly: true })
  whoami(_args: unknown, ctx: Context) {
    if (ctx.era === undefined) throw new ToolError('Call me from a client');
    return {
      era: ctx.era,
      protocolVersion: ctx.protocolVersion,
      session: ctx.sessionId !== undefined,
      client: ctx.clientInfo?.name ?? 'unknown',
    };
  }
}
// #endregion context

// #region server
import { PhantomServer } from 'phantom-mcp';

export function createServer(): PhantomServer {
  const server = new PhantomServer({
    name: 'countdown',
    version: '1.0.0',
    title: 'Countdown',
    description: 'Counts down, and says who is calling',
    instructions: 'Use countdown for timers of up to ten seconds.',
    providers: [CountdownTools],
    pageSize: 1, // one tool per page of tools/list
    // how long ctx.elicit, ctx.sample and ctx.listRoots wait
    requestTimeoutMs: 60_000,
  });
  return server.use(StampGuard);
}
// #endregion server

// #region definition-error
import { DefinitionError } from 'phantom-mcp';

export class BrokenTools {
  @Tool({ description: 'A name no client accepts', name: 'count down' })
  countdown() {
    return 'never';
  }

  @Tool({ description: 'The same name twice', name: 'twice' })
  first() {
    return 'first';
  }

  @Tool({ description: 'The same name twice', name: 'twice' })
  second() {
    return 'second';
  }
}

type Provider = new (...args: never[]) => unknown;

export function problemsOf(providers: Provider[]): readonly string[] {
  try {
    new PhantomServer({ name: 'broken', version: '1.0.0', providers });
    return [];
  } catch (error) {
    // every problem, at once
    if (error instanceof DefinitionError) return error.problems;
    throw error;
  }
}
// #endregion definition-error
