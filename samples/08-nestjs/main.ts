import 'reflect-metadata';
import { All, Controller, Injectable, Module, Req, Res, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { ModuleRef, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { IsString, MinLength } from 'class-validator';
import type { Request, Response } from 'express';
import { Field, ForbiddenError, PhantomServer, Tool, ToolError, UseGuards, type CanActivate, type ExecutionContext } from '../../lib';
import { expressJsonErrors, type StreamableHttpHandler } from '../../lib/entries/http';
import { storeFromEnv } from '../store-from-env';

/** An ordinary Nest service: one instance in the app, shared by the tools, the guard and the app's own code. */
@Injectable()
export class Notebook {
  private readonly notes = new Map<string, string>([['welcome', 'These tools live in a Nest module.']]);
  locked = false;

  read(slug: string): string | undefined {
    return this.notes.get(slug);
  }

  write(slug: string, text: string): void {
    this.notes.set(slug, text);
  }
}

export class SlugArgs {
  @Field({ description: 'The note\'s slug, e.g. welcome' })
  @IsString()
  slug!: string;
}

export class WriteArgs extends SlugArgs {
  @Field({ description: 'The note\'s text' })
  @IsString()
  @MinLength(1)
  text!: string;
}

/** A phantom guard that is a Nest provider too: Nest builds it and injects the notebook. */
@Injectable()
export class UnlessLocked implements CanActivate {
  constructor(private readonly notebook: Notebook) {}

  canActivate({ target }: ExecutionContext): boolean {
    if (this.notebook.locked) throw new ForbiddenError(`The notebook is locked, so ${target} is refused`);
    return true;
  }
}

/** The tools: a Nest provider (Nest injects the notebook), served by the MCP server. */
@Injectable()
export class NoteTools {
  constructor(private readonly notebook: Notebook) {}

  @Tool({ description: 'Read a note', readOnly: true })
  note_read({ slug }: SlugArgs) {
    const text = this.notebook.read(slug);
    if (text === undefined) throw new ToolError(`No note is called ${slug}`);
    return text;
  }

  @UseGuards(UnlessLocked)
  @Tool({ description: 'Write a note', idempotent: true })
  note_write({ slug, text }: WriteArgs) {
    this.notebook.write(slug, text);
    return `Saved ${slug}`;
  }
}

/**
 * The MCP server, made once Nest has built every provider (`onModuleInit`), so it takes the
 * instances from Nest: a class Nest does not hold fails `app.init()` with a `DefinitionError`.
 * With `REDIS_URL` set it opens its Redis there too, so `app.init()` fails while Redis is down.
 */
@Injectable()
export class McpEndpoint implements OnModuleInit, OnApplicationShutdown {
  server!: PhantomServer;
  handler!: StreamableHttpHandler;

  constructor(private readonly moduleRef: ModuleRef) {}

  async onModuleInit(): Promise<void> {
    this.server = new PhantomServer({
      name: 'nest-notes',
      version: '1.0.0',
      providers: [NoteTools],
      resolve: (cls) => this.moduleRef.get(cls, { strict: false }),
      store: storeFromEnv(),
    });
    this.handler = this.server.httpHandler();
    // The handler is mounted, not listened: the server's shared store is opened here.
    await this.server.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.server.close();
  }
}

/** Streamable HTTP at /mcp, after the app's JSON body parser (the handler takes `req.body`; see `createApp`). */
@Controller()
export class McpController {
  constructor(private readonly endpoint: McpEndpoint) {}

  @All('mcp')
  handle(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.endpoint.handler.handle(req, res);
  }
}

@Module({ providers: [Notebook, UnlessLocked, NoteTools, McpEndpoint], controllers: [McpController] })
export class NotesModule {}

/**
 * The Nest app, not yet initialised: `app.init()` or `app.listen()` makes the MCP server.
 *
 * Nest's own JSON parser takes 100 kB and answers its failures in Nest's format. The app's other
 * routes may want a parsed body, so the parser stays, given the MCP handler's limit (4 MiB; Nest
 * then adds no JSON parser of its own), with `expressJsonErrors()` right after it: malformed JSON
 * at /mcp gets 400 with -32700, a body past the limit 413, both with a JSON-RPC error body.
 */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(NotesModule, { logger: ['error', 'warn'] });
  app.useBodyParser('json', { limit: '4mb' });
  app.use('/mcp', expressJsonErrors());
  return app;
}

/** `node dist/samples/08-nestjs/main.js [--port 3000]`: serves MCP at http://127.0.0.1:3000/mcp. */
async function main(argv: readonly string[]): Promise<void> {
  const at = argv.indexOf('--port');
  const app = await createApp();
  app.enableShutdownHooks();
  await app.listen(at === -1 ? 3000 : Number(argv[at + 1]), '127.0.0.1');
  process.stderr.write(`nest-notes serving MCP at ${await app.getUrl()}/mcp\n`);
}

if (require.main === module) void main(process.argv.slice(2));
