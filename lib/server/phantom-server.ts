import { Method } from '../core/methods';
import { container as rootContainer, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { Context } from '../context/context';
import type { Constructor } from '../metadata/metadata-store';
import { definedOnly } from '../core/defined-only';
import { DIAGNOSTICS, STDERR_DIAGNOSTICS, type Diagnostics } from '../core/diagnostics';
import { PhantomError } from '../core/errors';
import type { Implementation } from '../core/wire.types';
import { Paginator } from '../router/pagination';
import { DEFAULT_MAX_ARRAY_ITEMS } from '../schema';
import { Registry, type ListChangeListener } from '../router/registry';
import { Router, type Outcome } from '../router/router';
import { VisibilityResolver } from '../router/visibility';
import { ExtensionSet } from '../router/extensions/extension-set';
import { extensionHost } from '../router/extensions/extension-host';
import { tasksExtension } from '../protocol/tasks/tasks-extension';
import type { PipelineMember } from '../router/pipeline/pipeline-members';
import { scan } from '../definitions/scanner';
import type { InstanceSource } from '../definitions/instance-source';
import { DefinitionError } from '../core/errors';
import type { MessageTransport } from '../transport/pipe/message-transport';
import { StreamConnection } from '../transport/pipe/stream-connection';
import type { HttpOptions, ListenOptions } from '../transport/http/http-options';
import type { EventStore } from '../protocol/seams/event-store';
import type { SharedStores } from '../protocol/seams/shared-stores';
import { StreamableHttpHandler } from '../transport/http/streamable-http.handler';
import { listenHttp, type HttpListener } from '../transport/http/http-listener';
import { fetchHandlerOf, type FetchHandler } from '../transport/fetch/fetch-handler';
import { cardDraft, cardOptionProblems, type ServerCard, type ServerCardFacts, type ServerCardOptions } from '../transport/http/server-card';
import { SESSION_ERA_VERSIONS } from '../protocol/versions';
import { STATELESS_VERSIONS } from '../protocol/stateless-era/request-meta';
import { composeProtocol, type Protocol } from './protocol-composition';
import type { EnvironmentVariable, PhantomServerOptions } from './server-options';
import { environmentProblems } from './environment-checks';
import { TelemetryInterceptor } from '../router/pipeline/built-ins/telemetry.interceptor';
import { ContainerInstanceSource } from './container-instance-source';
import { ResolvedInstanceSource } from './resolved-instance-source';
import { SigningKeys } from './signing-keys';

/**
 * An MCP server built from decorated classes: the composition root. It scans the providers once,
 * compiles the router, wires the protocol layer and the transports, and owns a tsyringe child
 * container in which each provider is a singleton.
 *
 * @example
 * const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] });
 * const outcome = await server.handle('tools/call', { name: 'forecast', arguments: { city: 'Oslo' } });
 */
export class PhantomServer {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  /** The environment variables the server declared it reads (the `environment` option), for what installs it. */
  readonly environment: readonly EnvironmentVariable[];
  /** The server's own child container: register services here, or in the parent you passed. */
  readonly container: DependencyContainer;
  private readonly registry = new Registry(this.options.maxArrayItems ?? DEFAULT_MAX_ARRAY_ITEMS);
  private readonly router: Router;
  /** The extensions this server serves (the `extensions` option). */
  private readonly extensions: ExtensionSet;
  /** Whether an item exists and a caller may know it: the one rule for the router and the protocol layer. */
  private readonly visibility = new VisibilityResolver(this.registry, this.options.visible);
  /** Where the framework reports handler failures. */
  readonly diagnostics: Diagnostics;

  constructor(private readonly options: PhantomServerOptions) {
    if (options.store && (options.sessionStore || options.bus)) {
      throw new PhantomError('store_conflict', 'PhantomServer options: store (what replicas share) brings its own session store and bus; set either store, or sessionStore and bus, not both');
    }
    this.info = Object.freeze(definedOnly({
      name: options.name, version: options.version, title: options.title, icons: options.icons, websiteUrl: options.websiteUrl, description: options.description,
    }));
    this.instructions = options.instructions;
    const environmentIssues = environmentProblems(options.environment ?? []);
    if (environmentIssues.length > 0) throw new DefinitionError(environmentIssues);
    this.environment = Object.freeze((options.environment ?? []).map((variable) => Object.freeze({ ...variable })));
    this.container = (options.container ?? rootContainer).createChildContainer();
    // Providers may inject the server itself, to change what it serves at runtime.
    this.container.registerInstance(PhantomServer, this);
    this.diagnostics = options.diagnostics ?? STDERR_DIAGNOSTICS;
    // Guards and interceptors may write where the server writes: @inject(DIAGNOSTICS).
    this.container.registerInstance(DIAGNOSTICS, this.diagnostics);
    this.instances = options.resolve ? new ResolvedInstanceSource(options.resolve) : new ContainerInstanceSource(this.container);
    this.keys = new SigningKeys(options);
    const paginator = new Paginator(options.pageSize, this.keys.cursor);
    // The tasks extension first: it is written on the extension API, as the user's extensions are.
    const tasks = tasksExtension({
      service: () => this.protocol.tasks,
      hasTaskTools: () => this.registry.counts.taskTools > 0,
      resourceUpdated: (uri) => this.resourceUpdated(uri),
    });
    this.extensions = new ExtensionSet([tasks, ...(options.extensions ?? [])], (extension) => extensionHost(extension, {
      registry: this.registry, visibility: this.visibility, paginator, diagnostics: this.diagnostics, resolve: this.resolve,
      listeners: () => this.protocol.events.listeners,
      tokenKey: this.keys.extensions,
      callTool: (params, ctx) => this.router.handle(Method.ToolsCall, params, ctx),
    }), () => this.registry.counts);
    const memberProblems = this.instances.problems(this.extensions.memberClasses());
    if (memberProblems.length > 0) throw new DefinitionError(memberProblems);
    this.router = new Router({
      registry: this.registry,
      paginator,
      diagnostics: this.diagnostics,
      visibility: this.visibility,
      maxUriLength: options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH,
      maxArrayItems: options.maxArrayItems ?? DEFAULT_MAX_ARRAY_ITEMS,
      maxInFlightPerNode: options.maxInFlightPerNode,
      allowTemplateControlChars: options.allowTemplateControlChars ?? false,
      resolve: this.resolve,
      extensions: this.extensions,
    });
    // Outermost: registered before anything `use()` adds, so it times and records all of it.
    if (options.telemetry) this.use(new TelemetryInterceptor(options.telemetry === true ? {} : options.telemetry));
    this.add(...options.providers);
    if (options.forms?.length) scan({ providers: [], forms: options.forms, resolve: this.resolve });
  }

  /** Serves the tools, resources and prompts of more provider classes on the running server. */
  add(...providers: Constructor[]): void {
    const built = [...new Set(providers)].filter((cls) => typeof cls === 'function' && !this.instances.isRegistered(cls));
    this.registry.add(scan({ providers, resolve: this.resolve, wiring: { classes: built, source: this.instances } }));
    // Registered once accepted, so a refused add leaves nothing behind.
    this.instances.adopt(built);
  }

  /**
   * Adds guards and interceptors to every operation this server serves (tools, prompts,
   * resources, lists, completion, ping, logging, subscriptions, discover, listen), in the order
   * given and after those added before; they run before those of `@UseGuards` and
   * `@UseInterceptors`. Pass classes (built once from the server's container, so they can inject
   * services) or instances.
   *
   * @example
   * server.use(new RateLimitGuard({ burst: 20, perSecond: 5 }), RequestLoggingInterceptor, AuditGuard);
   */
  use(...members: PipelineMember[]): this {
    // Classes are built from their constructors: their wiring is checked now, as the providers' is.
    const built = (members as unknown[]).filter((member): member is Constructor => typeof member === 'function' && !this.instances.isRegistered(member));
    const problems = this.instances.problems(built);
    if (problems.length > 0) throw new DefinitionError(problems);
    this.router.use(members);
    return this;
  }

  /**
   * Replaces what the server's container gives for `token` with `value`: a fake service in a test
   * (`phantom-mcp/testing` passes its `overrides` here). Provider, guard and interceptor instances
   * are built on first use and kept for the server's life, so a replacement reaches them only
   * while the server has built none: afterwards this throws (`override_too_late`; make a new
   * server per test). With the `resolve` option the other container owns the instances, so
   * replace the service there instead (`override_with_resolve`).
   *
   * @example
   * const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools] });
   * server.override(WeatherApi, { forecast: async () => ({ city: 'Oslo', celsius: 21 }) });
   */
  override<T>(token: InjectionToken<T>, value: T): this {
    if (this.options.resolve) {
      throw new PhantomError('override_with_resolve', 'PhantomServer#override: this server takes its instances from the resolve option; replace the service in the container behind it');
    }
    if (this.built) {
      throw new PhantomError('override_too_late', `PhantomServer#override(${tokenName(token)}): the server has built its providers already (it served a request), so they keep what they were given; override before the first request, on a new server per test`);
    }
    this.container.register(token, { useValue: value });
    return this;
  }

  /** Every OAuth scope the decorators declare, once each: the `scopes_supported` of the protected-resource metadata. */
  declaredScopes(): string[] {
    return this.registry.declaredScopes();
  }

  /**
   * Stops serving the tool `name` on the running server; connected clients are told with
   * `notifications/tools/list_changed`. Returns false, and changes nothing, when no tool has that name.
   */
  removeTool(name: string): boolean {
    return this.registry.removeTool(name);
  }

  /**
   * Stops serving the prompt `name`; connected clients are told with `notifications/prompts/list_changed`.
   * Returns false, and changes nothing, when no prompt has that name.
   */
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

  /** The protocol layer shared by every transport of this server, made on first use. */
  private get protocol(): Protocol {
    return (this.composed ??= composeProtocol({
      registry: this.registry,
      router: this.router,
      visibility: this.visibility,
      identity: { info: this.info, instructions: this.instructions },
      diagnostics: this.diagnostics,
      options: this.options,
      stateKey: this.keys.requestState,
      extensions: this.extensions,
    }));
  }

  /**
   * Serves one client on a message pipe: stdio or an in-memory transport. Resolves once the
   * transport has started; `done` on the returned connection settles when the pipe ends.
   *
   * @example
   * await server.connect(new StdioTransport());
   */
  async connect(transport: MessageTransport, principal?: unknown): Promise<StreamConnection> {
    await this.start();
    const connection = new StreamConnection(this.protocol.dispatcher, transport, principal, { shutdownTimeoutMs: this.options.shutdownTimeoutMs });
    this.serving(connection);
    void connection.done.then(() => this.running.delete(connection));
    await connection.start();
    return connection;
  }

  /**
   * A `(req, res)` handler for Streamable HTTP, to mount in node:http, Express, Fastify or Nest.
   * Its `close()` drains it gracefully (see the replicas guide, docs/guide/replicas.md, on shutting down); `server.close()` closes it too.
   */
  httpHandler(options: HttpOptions = {}): StreamableHttpHandler {
    const defaults = { shutdownTimeoutMs: this.options.shutdownTimeoutMs, ...(this.options.store ? { eventStore: this.sharedEvents() } : {}) };
    const scopes = { declared: () => this.declaredScopes(), needed: () => this.router.scopesEveryOperationNeeds() };
    // A mounted handler may take requests before anyone awaits `start()`: its extensions load now.
    this.setUpExtensions();
    return this.serving(new StreamableHttpHandler(this.protocol.dispatcher, { ...defaults, ...options }, scopes, this.cardFacts));
  }

  /**
   * The server card for an endpoint at `options.url`, as `listen()` and the handlers serve it at
   * `<path>/server-card`: to host it elsewhere (a static site, an AI Catalog entry's `data`).
   * `bearer`: the endpoint is an OAuth resource server (the card names the Authorization header).
   * Throws a `PhantomError` (`server_card_unavailable`) saying what is missing: a registry name
   * or a description.
   *
   * @example
   * const card = server.serverCard({ url: 'https://mcp.example.com/mcp', name: 'com.example/notes' });
   */
  serverCard(options: ServerCardOptions & { readonly url: string; readonly bearer?: boolean }): ServerCard {
    const wrong = cardOptionProblems(options);
    if (wrong.length > 0) throw new PhantomError('server_card_option', `Server card: ${wrong.join('; ')}`);
    const draft = cardDraft(this.cardFacts, options, options.bearer === true);
    if (!draft.ok) throw new PhantomError('server_card_unavailable', `No server card: ${draft.problems.join('; ')}`);
    return draft.build(options.url);
  }

  /** What the server card says of this server: its identity and the versions both eras serve, newest first. */
  private get cardFacts(): ServerCardFacts {
    return { info: this.info, protocolVersions: [...STATELESS_VERSIONS, ...SESSION_ERA_VERSIONS] };
  }

  /**
   * A web-standard `(request: Request) => Promise<Response>` handler for Streamable HTTP, to
   * serve from Hono, Bun, Deno, Cloudflare Workers or a Next.js route handler: the same guards,
   * eras, statuses and options as `httpHandler()`, SSE answers as streamed bodies. Its `close()`
   * drains it gracefully; `server.close()` closes it too.
   *
   * @example
   * const mcp = server.fetchHandler();
   * Bun.serve({ port: 3000, fetch: (request) => mcp(request) });
   */
  fetchHandler(options: HttpOptions = {}): FetchHandler {
    return fetchHandlerOf(this.httpHandler(options));
  }

  /**
   * Serves Streamable HTTP at `http://host:port/mcp` (127.0.0.1 unless told otherwise).
   *
   * @example
   * const { url } = await server.listen({ port: 3000 });
   */
  async listen(options: ListenOptions = {}): Promise<HttpListener> {
    await this.start();
    return this.serving(await listenHttp(this.httpHandler(options), withStoreReadiness(options, this.options.store)));
  }

  /**
   * Opens what the server shares with other replicas (the `store` option), once: rejects with a
   * clear error when it cannot be reached. It also takes the replicas' shared secret, which signs
   * list cursors and requestStates (unless `cursorKey` and `stateKey` are set). `listen()` and
   * `connect()` call it; a server mounted with `httpHandler()` or `fetchHandler()` should await it
   * before taking requests (until it has, the first requests wait for the connection, and what
   * they sign only this process accepts). Without a `store`, there is nothing to open.
   *
   * @example
   * await server.start(); // fails here, at start-up, if Redis is down
   * app.all('/mcp', (req, res) => mcp.handle(req, res));
   */
  start(): Promise<void> {
    return (this.opening ??= this.openStore().then(() => this.extensions.setup()).catch((error) => {
      this.opening = undefined;
      throw error;
    }));
  }

  /** Runs the extensions' `setup` without waiting (a mounted handler); a failure is reported, and the next request tries again. */
  private setUpExtensions(): void {
    this.extensions.setup().catch((error) => this.diagnostics.error('an extension failed to set up', error));
  }

  private async openStore(): Promise<void> {
    const store = this.options.store;
    if (!store) return;
    await store.open();
    // Replicas accept each other's cursors and requestStates: the keys the options leave unset
    // come from the secret they share.
    store.onSecret((secret) => this.keys.share(secret));
  }

  /** Tells every client subscribed to `uri` that it changed (on every node, over the session bus). */
  resourceUpdated(uri: string): Promise<void> {
    return this.protocol.events.resourceUpdated(uri);
  }

  /**
   * Announces that the URL elicitation `elicitationId` is complete (the user finished the flow
   * in the browser). Call it on any node: it goes over the session bus to the node that sent the
   * elicitation, which tells the client; an id no node tracks (unknown, already completed, or of a
   * session that ended) is ignored. Resolves once the bus has taken it.
   */
  notifyElicitationComplete(elicitationId: string): Promise<void> {
    return this.protocol.engine.notifyElicitationComplete(elicitationId);
  }

  /**
   * Shuts down everything this server runs, gracefully: every listener, handler and connection
   * it made stops accepting requests, lets calls in flight finish within `shutdownTimeoutMs`, then
   * cancels and answers the rest with an error and ends its streams; then background work
   * (session expiry) stops. Resolves when all is closed; calling it again returns the same promise.
   *
   * @example
   * process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
   */
  close(): Promise<void> {
    return (this.closing ??= this.shutDown());
  }

  private async shutDown(): Promise<void> {
    await Promise.all([...this.running].map((part) => part.close()));
    if (this.composed) await this.composed.close();
    // Opened by start() alone (nothing served yet): the protocol layer, which closes it otherwise, was never made.
    else if (this.opening) await this.options.store?.close();
    await this.extensions.close();
  }

  /** What `close()` closes; a closed server takes nothing new to run. */
  private serving<T extends { close(): Promise<void> }>(part: T): T {
    if (this.closing) {
      void part.close();
      throw new PhantomError('server_closed', 'The server is closed: it serves no new transport');
    }
    this.running.add(part);
    return part;
  }

  /** Answers one request in-process. Never throws: the outcome is a result or a JSON-RPC error. */
  handle(method: string, params?: unknown, ctx: Context = new Context()): Promise<Outcome> {
    return this.router.handle(method, params, ctx);
  }

  /** The one event store of every handler of this server, when replicas share one. */
  private sharedEvents(): EventStore {
    return (this.events ??= this.options.store!.events());
  }

  private readonly keys: SigningKeys;
  private composed?: Protocol;
  private opening?: Promise<void>;
  private events?: EventStore;
  private readonly running = new Set<{ close(): Promise<void> }>();
  private closing?: Promise<void>;

  /** Where provider, guard and interceptor instances come from: the child container, or the `resolve` option. */
  private readonly instances: InstanceSource;

  /** Whether any provider, guard or interceptor instance was built: `override()` is too late from then on. */
  private built = false;

  private readonly resolve = (cls: Constructor): object => {
    this.built = true;
    return this.instances.resolve(cls);
  };
}

/** The listener's readiness checks, with the shared store's first: not ready while it cannot be reached. */
function withStoreReadiness(options: ListenOptions, store: SharedStores | undefined): ListenOptions {
  if (!store || options.health === false) return options;
  const own = options.health?.ready;
  const checks = own === undefined ? [] : typeof own === 'function' ? [own] : [...own];
  return { ...options, health: { ...options.health, ready: [() => store.ready(), ...checks] } };
}

function tokenName(token: InjectionToken<unknown>): string {
  if (typeof token === 'function') return token.name || '(anonymous class)';
  return typeof token === 'symbol' ? token.toString() : typeof token === 'string' ? token : 'a token';
}

/** 8 KiB: far beyond any real resource URI, small enough that matching one costs nothing. */
const DEFAULT_MAX_URI_LENGTH = 8 * 1024;
