// Raising and lowering limits: server options and HTTP options.
// Included in docs/guide/limits.md; run by spec/docs/examples/limits.spec.ts.
import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Field, PhantomServer, Tool } from 'phantom-mcp';
import type { HttpListener } from 'phantom-mcp/http';

export class SaveArgs {
  @Field({ description: 'The document to store' })
  @IsString()
  text!: string;
}

export class Documents {
  @Tool({ description: 'Stores a document and says how long it is' })
  save(args: SaveArgs): string {
    return `Saved ${args.text.length} characters`;
  }
}

// #region limits
export async function serve(port = 3000): Promise<{ server: PhantomServer; listener: HttpListener }> {
  const server = new PhantomServer({
    name: 'documents', version: '1.0.0', providers: [Documents],
    maxSessions: 500,             // server options: every transport
    maxInFlightPerSession: 20,
    tasks: { maxActivePerOwner: 10 },
  });
  const listener = await server.listen({
    port,
    maxBodyBytes: 16 * 1024 * 1024, // HTTP options: 16 MiB calls, 60 s to send one
    bodyTimeoutMs: 60_000,
  });
  return { server, listener };
}
// #endregion limits
