// The call path, watched from the inside: a guard and an interceptor leave a trail in the call's
// context, the handler adds to it, and the result carries it back. Included in
// docs/concepts/call-path.md; run by spec/docs/examples/call-path.spec.ts.
import 'reflect-metadata';
// #region members
import { IsString, MaxLength } from 'class-validator';
import {
  type CallHandler, type CanActivate, Context, ContextKey, type ExecutionContext, Field, type Interceptor, PhantomServer, Tool,
} from 'phantom-mcp';

/** Per-call data: it travels with the call's Context, never on a shared instance. */
export const TRAIL = new ContextKey<string[]>('trail');

/** A guard runs first, with the arguments as the client sent them. */
export class Tracer implements CanActivate {
  canActivate({ context, method, target }: ExecutionContext): boolean {
    context.set(TRAIL, [`guard: ${method} ${target ?? ''}`.trim()]);
    return true; // anything else refuses the call with -32003
  }
}

/** An interceptor runs around the handler, once the arguments are valid. */
export class Around implements Interceptor {
  async intercept({ context }: ExecutionContext, next: CallHandler): Promise<unknown> {
    context.get(TRAIL)?.push('interceptor: before');
    const value = await next(); // the handler (or the next interceptor)
    context.get(TRAIL)?.push('interceptor: after');
    return value; // mapped to an MCP result after this returns
  }
}
// #endregion members

// #region tool
export class EchoArgs {
  @Field({ description: 'What to echo' })
  @IsString() @MaxLength(20)
  text!: string;
}

export class Echo {
  @Tool({ description: 'Echoes its text, with the path the call took', readOnly: true })
  echo(args: EchoArgs, ctx: Context) {
    const trail = ctx.get(TRAIL) ?? [];
    trail.push(`handler: ${args.text} (${ctx.era ?? 'in-process'})`);
    return { trail }; // an object: structuredContent, and its JSON as text
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'echo', version: '1.0.0', providers: [Echo] })
    .use(new Tracer(), new Around()); // every operation: lists, reads, calls
}
// #endregion tool

// #region in-process
/** `server.handle` enters the path at the router: no transport, no era, no session. */
export async function echoInProcess(text: string): Promise<unknown> {
  const server = createServer();
  const outcome = await server.handle('tools/call', { name: 'echo', arguments: { text } });
  await server.close();
  return 'result' in outcome ? outcome.result.structuredContent : outcome.error;
}
// #endregion in-process
