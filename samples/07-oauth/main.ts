import 'reflect-metadata';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { Field, PhantomServer, Tool, ToolError, type Context } from '../../lib';
import { oauthResourceServer } from '../../lib/entries/oauth';
import { runSample, valueOf } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

export class SlugArgs {
  @Field({ description: 'The note, e.g. welcome' }) @IsString() @MinLength(1) @MaxLength(100) slug!: string;
}

export class WriteArgs extends SlugArgs {
  @Field({ description: 'What the note says' }) @IsString() @MaxLength(10_000) text!: string;
}

/**
 * The notes tools behind OAuth: each call needs a bearer token of the configured authorization
 * server, minted for this server (its audience), granting the tool's scope. The handler reads who
 * is calling from `ctx.auth`.
 */
export class NotesTools {
  private readonly notes = new Map<string, { text: string; author: string }>([['welcome', { text: 'Tokens carry scopes; tools ask for them.', author: 'system' }]]);

  @Tool({ description: 'Read a note', readOnly: true, scopes: ['notes:read'] })
  notes_read(args: SlugArgs) {
    const note = this.notes.get(args.slug);
    if (!note) throw new ToolError(`No note named ${args.slug}`);
    return note;
  }

  @Tool({ description: 'Write a note, signed by the caller', scopes: ['notes:write'] })
  notes_write(args: WriteArgs, ctx: Context) {
    const note = { text: args.text, author: ctx.auth!.subject };
    this.notes.set(args.slug, note);
    return note;
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'notes-oauth', version: '1.0.0', providers: [NotesTools], store: storeFromEnv() });
}

const USAGE = '07-oauth serves over HTTP only: --http --port N --issuer URL --audience URL\n'
  + '  --issuer    the authorization server (its JWKS is discovered from its metadata)\n'
  + '  --audience  this server\'s URL, which tokens must be minted for, e.g. http://127.0.0.1:3000/mcp\n';

/** Starts the sample from its flags, or says how to. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const issuer = valueOf(argv, '--issuer');
  const audience = valueOf(argv, '--audience');
  if (!argv.includes('--http') || issuer === undefined || audience === undefined) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  await runSample(createServer(), argv, { auth: oauthResourceServer({ issuer, audience }) });
}

if (require.main === module) void main();
