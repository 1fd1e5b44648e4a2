import 'reflect-metadata';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IsEmail, IsIn, IsString } from 'class-validator';
import { container as rootContainer, injectable } from 'tsyringe';
import { Elicit, Field, PhantomServer, StdioTransport, Tool, ToolResult, type Context } from '../../lib';
import { requestDeadlines, type StreamableHttpHandler } from '../../lib/entries/http';
import { closeOnSignals, valueOf } from '../run-sample';
import { storeFromEnv } from '../store-from-env';
import { ConnectPage } from './connect-page';

/** The seed's own example form, as a class: the answer comes back as a validated instance. */
@Elicit({ message: 'What is your info?' })
export class UserInfo {
  @Field({ title: 'Your name' })
  @IsString()
  name!: string;

  @Field({ title: 'Email' })
  @IsEmail()
  email!: string;

  @Field({ title: 'Role', oneOf: { dev: 'Developer', pm: 'Product Manager' } })
  @IsIn(['dev', 'pm'])
  role!: string;
}

/** Form and URL elicitation, with the fallbacks a real client landscape needs. */
@injectable()
export class GreeterTools {
  constructor(private readonly page: ConnectPage) {}

  @Tool({ description: 'Asks who you are, then greets you' })
  async greet(_args: object, ctx: Context) {
    const answer = await ctx.elicit(UserInfo);
    switch (answer.action) {
      case 'accept': return `Hello ${answer.content.name}`;
      case 'unsupported': return 'Hello stranger';
      case 'timeout': return ToolResult.error('Timed out waiting for your answer');
      default: return ToolResult.error('Rejected');
    }
  }

  /**
   * URL mode: what the user types goes to this server's own page, never through the client.
   * `accept` only means the user agreed to open the page; the name arrives when they submit it.
   */
  @Tool({ description: 'Sends you to a web page to sign in, then greets you by the name you typed there' })
  async authenticate(_args: object, ctx: Context) {
    const link = this.page.open('Please sign in', ctx.signal);
    const answer = await ctx.elicit(Elicit.url({ message: 'Please sign in', url: link.url, elicitationId: link.elicitationId }));
    if (answer.action !== 'accept') link.cancel();
    if (answer.action === 'unsupported') return ToolResult.error('URL elicitation not supported');
    if (answer.action !== 'accept') return ToolResult.error('Auth rejected');
    const name = await link.answer;
    return name === undefined ? ToolResult.error('The sign-in page expired before you submitted it') : `Authenticated as ${name}`;
  }
}

/** The server, its tools given the page they send users to (a singleton of the server's container). */
export function createServer(page: ConnectPage = new ConnectPage()): PhantomServer {
  const container = rootContainer.createChildContainer();
  container.registerInstance(ConnectPage, page);
  return new PhantomServer({ name: 'greeter', version: '1.0.0', providers: [GreeterTools], forms: [UserInfo], store: storeFromEnv(), container });
}

/** What `serve()` started. */
export interface Serving {
  readonly server: PhantomServer;
  /** The HTTP server of the page (and of MCP at `/mcp` with `--http`). */
  readonly http: Server;
  /** `http://host:port`: the page is at `${origin}/connect/:elicitationId`. */
  readonly origin: string;
  /** The MCP endpoint with `--http`; `undefined` over stdio. */
  readonly mcpUrl?: string;
  /** Settles when the stdio client goes away (never, over HTTP). */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the sample. The page needs an HTTP server in both modes: with `--http` it is the MCP
 * endpoint's (`/mcp` and `/connect/...` on one port, default 3000); over stdio, MCP stays on
 * stdin/stdout and the page gets an HTTP server of its own (on `--port`, default a free one).
 * `--public-url URL` is where browsers reach it, when not at the listen address (behind a proxy).
 *
 * @example
 * node dist/samples/04-elicitation/main.js --http --port 3000
 * node dist/samples/04-elicitation/main.js --http --port 3000 --host 0.0.0.0 --public-url https://greeter.example.com
 */
export function serve(argv: readonly string[], log?: (line: string) => void): Promise<Serving> {
  const page = new ConnectPage();
  return serveWithPage(createServer(page), page, argv, log);
}

/** `serve()` for any server whose tools send users to `page` (the showcase's). */
export async function serveWithPage(server: PhantomServer, page: ConnectPage, argv: readonly string[], log: (line: string) => void = (line) => process.stderr.write(line)): Promise<Serving> {
  const overHttp = argv.includes('--http');
  page.onSubmitted((elicitationId) => server.notifyElicitationComplete(elicitationId));
  const mcp = overHttp ? server.httpHandler() : undefined;
  await server.start();
  // The deadlines `listen()` sets: a request whose headers or body trickle in gets 408.
  const http = createHttpServer(requestDeadlines({}), (req, res) => route(page, mcp, req, res));
  const port = Number(valueOf(argv, '--port') ?? (overHttp ? 3000 : 0));
  const host = valueOf(argv, '--host') ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => http.once('error', reject).listen(port, host, () => resolve()));
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${(http.address() as AddressInfo).port}`;
  page.publishAt(valueOf(argv, '--public-url') ?? origin);
  const close = async () => {
    await server.close();
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  if (mcp) {
    log(`${server.info.name} serving MCP at ${origin}/mcp, its sign-in page at ${origin}/connect/\n`);
    return { server, http, origin, mcpUrl: `${origin}/mcp`, done: new Promise(() => undefined), close };
  }
  log(`${server.info.name} speaks MCP on stdin/stdout; its sign-in page is at ${origin}/connect/\n`);
  const connection = await server.connect(new StdioTransport());
  return { server, http, origin, done: connection.done.then(() => undefined), close };
}

/** `/connect/...` to the page, `/mcp` to the MCP handler (with `--http`), anything else 404. */
function route(page: ConnectPage, mcp: StreamableHttpHandler | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (page.serves(req)) return void page.handle(req, res);
  if (mcp && (req.url ?? '/').split('?')[0] === '/mcp') return void mcp.handle(req, res);
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
}

/** Runs a sample with its page until its stdio client goes, or a signal (`runSample` for servers that send users to a page). */
export async function runWithPage(server: PhantomServer, page: ConnectPage, argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const serving = await serveWithPage(server, page, argv);
  closeOnSignals(serving.server);
  await serving.done;
  await serving.close();
  process.exit(0);
}

if (require.main === module) {
  const page = new ConnectPage();
  runWithPage(createServer(page), page).catch((error: unknown) => {
    process.stderr.write(`greeter: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
