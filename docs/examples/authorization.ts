// Authorization: the server as an OAuth 2.1 resource server, scopes on tools, the caller in ctx.auth,
// and a custom authenticate hook for API keys.
// Included in docs/guide/authorization.md; run by spec/docs/examples/authorization.spec.ts.
import 'reflect-metadata';
// #region tools
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Context, Field, RequireScopes, Tool, ToolError } from 'phantom-mcp';

export class NoteRef {
  @Field({ description: 'The note, e.g. welcome' }) @IsString() @MinLength(1) @MaxLength(100) slug!: string;
}

export class NoteText extends NoteRef {
  @Field({ description: 'What the note says' }) @IsString() @MaxLength(10_000) text!: string;
}

@RequireScopes('notes:read') // every tool of the class needs notes:read
export class NotesTools {
  private readonly notes = new Map([['welcome', { text: 'Tokens carry scopes.', author: 'system' }]]);

  @Tool({ description: 'Read a note', readOnly: true })
  read(args: NoteRef) {
    const note = this.notes.get(args.slug);
    if (!note) throw new ToolError(`No note named ${args.slug}`);
    return note;
  }

  @Tool({ description: 'Write a note, signed by the caller', scopes: ['notes:write'] }) // notes:read and notes:write
  write(args: NoteText, ctx: Context) {
    const note = { text: args.text, author: ctx.auth!.subject }; // the token's `sub`
    this.notes.set(args.slug, note);
    return note;
  }
}
// #endregion tools

// #region listen
import { PhantomServer } from 'phantom-mcp';
import type { HttpListener } from 'phantom-mcp/http';
import { oauthResourceServer } from 'phantom-mcp/oauth';

export async function serveNotes(issuer: string, port: number): Promise<HttpListener> {
  const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [NotesTools] });
  const auth = oauthResourceServer({
    issuer, // the authorization server, exactly as its metadata spells it
    audience: `http://127.0.0.1:${port}/mcp`, // this server: tokens must be minted for it
  });
  return server.listen({ port, auth });
}
// #endregion listen

// #region api-keys
import type { AuthDecision, AuthRequest } from 'phantom-mcp/http';

/** API keys of your own: each names who calls and the scopes it grants. */
const API_KEYS = new Map([['k-7f3a', { subject: 'ci-bot', scopes: ['notes:read'] }]]);

export function apiKeyAuthentication({ headers }: AuthRequest): AuthDecision {
  const key = headers['x-api-key'];
  const principal = typeof key === 'string' ? API_KEYS.get(key) : undefined;
  if (principal) return { allow: true, principal }; // plain data: what ctx.principal holds
  return { allow: false, status: 401, wwwAuthenticate: 'ApiKey realm="notes"', message: 'An X-Api-Key header is required' };
}

export async function serveNotesWithApiKeys(port: number): Promise<HttpListener> {
  const server = new PhantomServer({ name: 'notes', version: '1.0.0', providers: [NotesTools] });
  return server.listen({ port, authenticate: apiKeyAuthentication });
}
// #endregion api-keys
