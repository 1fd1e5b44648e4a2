import { container as rootContainer, Lifecycle, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { Context } from '../context/context';
import type { Constructor } from '../metadata/metadata-store';
import { STDERR_DIAGNOSTICS, type Diagnostics } from '../protocol/diagnostics';
import type { Implementation } from '../protocol/wire.types';
import { Paginator } from '../router/pagination';
import { Registry, type ListChangeListener } from '../router/registry';
import { Router, type Outcome } from '../router/router';
import { EVERYTHING_VISIBLE, type VisibleItem } from '../router/visibility';
import { scan } from '../scanner/scanner';
import { ProtocolCore } from '../protocol/core/protocol-core';
import type { MessageTransport } from '../transport/message-transport';
import { StreamConnection } from '../transport/stream-connection';
import type { HttpOptions, ListenOptions } from '../transport/http/http-options';
import { StreamableHttpHandler } from '../transport/http/streamable-http.handler';
import { listenHttp, type HttpListener } from '../transport/http/http-listener';
import type { PhantomServerOptions } from './server-options';

/**
 * An MCP server built from decorated classes. It scans the providers once, compiles the router,
 * and owns a tsyringe child container in which each provider is a singleton.
 *
 * @example
 * const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] });
 * const outcome = await server.handle('tools/call', { name: 'forecast', arguments: { city: 'Oslo' } });
 */
export class PhantomServer {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  /** The server's own child container: register services here, or in the parent you passed. */
  readonly container: DependencyContainer;
  readonly registry = new Registry();
  readonly router: Router;
  /** Where the framework reports handler failures. */
  readonly diagnostics: Diagnostics;

  constructor(private readonly options: PhantomServerOptions) {
    this.info = Object.freeze(definedOnly({
      name: options.name, version: options.version, title: options.title, icons: options.icons, websiteUrl: options.websiteUrl,
    }));
    this.instructions = options.instructions;
    this.container = (options.container ?? rootContainer).createChildContainer();
    // Providers may inject the server itself, to change what it serves at runtime.
    this.container.registerInstance(PhantomServer, this);
    this.diagnostics = options.diagnostics ?? STDERR_DIAGNOSTICS;
    this.router = new Router({
      registry: this.registry,
      paginator: new Paginator(options.pageSize, options.cursorKey),
      diagnostics: this.diagnostics,
      visible: options.visible ?? EVERYTHING_VISIBLE,
      maxUriLength: options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH,
    });
    this.add(...options.providers);
    if (options.forms?.length) scan({ providers: [], forms: options.forms, resolve: this.resolve });
  }

  /** Serves the tools, resources and prompts of more provider classes on the running server. */
  add(...providers: Constructor[]): void {
    const built = [...new Set(providers)].filter((cls) => typeof cls === 'function' && !this.container.isRegistered(cls));
    this.registry.add(scan({ providers, resolve: this.resolve, wiring: { classes: built, isRegistered: this.isRegistered } }));
    // Registered once accepted (instances are made on first call), so a refused add leaves nothing behind.
    for (const cls of built) this.container.register(cls, { useClass: cls }, { lifecycle: Lifecycle.ContainerScoped });
  }

  removeTool(name: string): boolean {
    return this.registry.removeTool(name);
  }

  removePrompt(name: string): boolean {
    return this.registry.removePrompt(name);
  }

  /** Removes a fixed resource by URI, or a template by its template text. */
  removeResource(uriOrTemplate: string): boolean {
    return this.registry.removeResource(uriOrTemplate);
  }

  /** Called after each runtime change to a list (the protocol layer turns it into `list_changed`). */
  onListChanged(listener: ListChangeListener): () => void {
    return this.registry.onChange(listener);
  }

  /** The protocol engine shared by every transport of this server, made on first use. */
  get protocol(): ProtocolCore {
    return (this.core ??= new ProtocolCore(this, {
      sessionStore: this.options.sessionStore,
      sessionIdleMs: this.options.sessionIdleMs,
      maxSessions: this.options.maxSessions,
      requestTimeoutMs: this.options.requestTimeoutMs,
      maxInFlightPerSession: this.options.maxInFlightPerSession,
      maxSubscriptionsPerSession: this.options.maxSubscriptionsPerSession,
      warningRateLimit: this.options.warningRateLimit,
      maxJsonDepth: this.options.maxJsonDepth,
      stateless: { stateKey: this.options.stateKey, stateTtlMs: this.options.stateTtlMs, cache: this.options.cacheDefaults },
    }));
  }

  /** Whether `principal` may see and use `item` (the `visible` rule; everything without one). */
  canSee(item: VisibleItem, principal: unknown): boolean {
    return this.options.visible?.(item, principal) ?? true;
  }

  /** True when what a caller sees depends on who it is (a `visible` rule is set). */
  get filtersByPrincipal(): boolean {
    return this.options.visible !== undefined;
  }

  /**
   * Serves one client on a message pipe: stdio or an in-memory transport. Resolves once the
   * transport has started; `closed` on the returned connection settles when the pipe ends.
   *
   * @example
   * await server.connect(new StdioTransport());
   */
  async connect(transport: MessageTransport, principal?: unknown): Promise<StreamConnection> {
    const connection = new StreamConnection(this.protocol, transport, principal);
    await connection.start();
    return connection;
  }

  /** A `(req, res)` handler for Streamable HTTP, to mount in node:http, Express, Fastify or Nest. */
  httpHandler(options: HttpOptions = {}): StreamableHttpHandler {
    return new StreamableHttpHandler(this.protocol, options);
  }

  /**
   * Serves Streamable HTTP at `http://host:port/mcp` (127.0.0.1 unless told otherwise).
   *
   * @example
   * const { url } = await server.listen({ port: 3000 });
   */
  listen(options: ListenOptions = {}): Promise<HttpListener> {
    return listenHttp(this.httpHandler(options), options);
  }

  /** Tells every client subscribed to `uri` that it changed. */
  resourceUpdated(uri: string): Promise<void> {
    return this.protocol.resourceUpdated(uri);
  }

  /**
   * Announces that the URL elicitation `elicitationId` is complete (the user finished the flow
   * in the browser); `false` when no session waits for it.
   */
  notifyElicitationComplete(elicitationId: string): boolean {
    return this.protocol.notifyElicitationComplete(elicitationId);
  }

  /** Stops background work (session expiry). Listeners are closed by their own `close()`. */
  async close(): Promise<void> {
    await this.core?.close();
  }

  /** Answers one request in-process. Never throws: the outcome is a result or a JSON-RPC error. */
  handle(method: string, params?: unknown, ctx: Context = new Context()): Promise<Outcome> {
    return this.router.handle(method, params, ctx);
  }

  private core?: ProtocolCore;

  private readonly resolve = (cls: Constructor): object => this.container.resolve(cls) as object;

  private readonly isRegistered = (token: unknown): boolean => this.container.isRegistered(token as InjectionToken, true);
}

/** 8 KiB: far beyond any real resource URI, small enough that matching one costs nothing. */
const DEFAULT_MAX_URI_LENGTH = 8 * 1024;

function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
