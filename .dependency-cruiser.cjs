/**
 * The layering of lib/ (README "Layout"; ARCHITECTURE "How a call flows"), checked in `npm test`.
 * Arrows point one way: server -> transport -> protocol -> router -> definitions/schema/... -> core.
 * A violation fails the run and names the rule.
 */
const folder = (name) => `^lib/${name}/`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No import cycle anywhere in lib/: between folders it tangles the layers, inside one it hides a missing seam.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing',
      comment: 'core/ is the foundation: it imports no other folder of the project.',
      severity: 'error',
      from: { path: folder('core') },
      to: { path: '^lib/', pathNot: folder('core') },
    },
    {
      name: 'cluster-seams-import-only-core',
      comment: 'The seams in protocol/seams/ (session store, event store, session bus) are what a Redis package implements: they name core types only, never the protocol engines or a transport.',
      severity: 'error',
      from: { path: '^lib/protocol/seams/' },
      to: { path: '^lib/', pathNot: [folder('core'), '^lib/protocol/seams/'] },
    },
    {
      name: 'cluster-implements-the-seams-only',
      comment: 'cluster/ (Redis) implements the seams of protocol/seams/ on core types: it never reaches the protocol engines, the router or a transport, so a replica shares state through the seams alone.',
      severity: 'error',
      from: { path: folder('cluster') },
      to: { path: '^lib/', pathNot: [folder('core'), '^lib/protocol/seams/', folder('cluster')] },
    },
    {
      name: 'transport-is-framing-only',
      comment: 'A transport frames messages and guards connections; it never reaches the router, the definitions, schemas or decorators.',
      severity: 'error',
      from: { path: folder('transport') },
      to: { path: ['router', 'definitions', 'schema', 'decorators', 'metadata', 'uri-template', 'results'].map(folder) },
    },
    {
      name: 'transports-enter-through-the-dispatcher',
      comment: 'A transport hands every message to the dispatcher and frames its outcome; the engines behind it (the session engine, the stateless era, the running-requests table, server events, the pending requests) are wired by the server, never reached by a transport.',
      severity: 'error',
      from: { path: folder('transport') },
      to: {
        path: [
          '^lib/protocol/session-era/session-engine\\.ts$',
          '^lib/protocol/session-era/pending-requests\\.ts$',
          '^lib/protocol/stateless-era/stateless-era\\.ts$',
          '^lib/protocol/running-requests\\.ts$',
          '^lib/protocol/events/',
        ],
      },
    },
    {
      name: 'protocol-knows-no-transport',
      comment: 'The protocol layer returns semantic outcomes (refusal kinds, never HTTP statuses) and knows no socket: it never imports a transport.',
      severity: 'error',
      from: { path: folder('protocol') },
      to: { path: [folder('transport'), folder('server')] },
    },
    {
      name: 'router-touches-no-socket',
      comment: 'The router and everything below it know nothing of protocols, eras or transports.',
      severity: 'error',
      from: { path: ['router', 'definitions', 'schema', 'decorators', 'metadata', 'uri-template', 'results', 'context'].map(folder) },
      to: { path: [folder('protocol'), folder('transport'), folder('server')] },
    },
    {
      name: 'nothing-below-the-server-imports-it',
      comment: 'PhantomServer is the composition root: components get what they use in their constructors, never the server.',
      severity: 'error',
      from: { path: '^lib/', pathNot: [folder('server'), '^lib/index\\.ts$'] },
      to: { path: folder('server') },
    },
    {
      name: 'pipeline-knows-no-method',
      comment: 'The operation pipeline (guards, pipes, interceptors, the error policy) is the same for every method: it never reaches the method handlers, the registry or the router that table them.',
      severity: 'error',
      from: { path: '^lib/router/pipeline/' },
      to: { path: ['^lib/router/handlers/', '^lib/router/router\\.ts$', '^lib/router/registry\\.ts$', '^lib/router/visibility\\.ts$', '^lib/router/pagination\\.ts$'] },
    },
    {
      name: 'decorators-only-record',
      comment: 'Decorators record options; they do not reach the definitions, the router or what serves them.',
      severity: 'error',
      from: { path: folder('decorators') },
      to: { path: ['definitions', 'router', 'results', 'context', 'protocol', 'transport', 'server'].map(folder) },
    },
    {
      name: 'fetch-adapter-only-adapts',
      comment: 'The web-standard handler (transport/fetch) is an adapter over the one HTTP transport: it uses transport/http and core/ only, so no HTTP decision is made a second time there.',
      severity: 'error',
      from: { path: folder('transport/fetch') },
      to: { path: '^lib/', pathNot: [folder('transport/fetch'), folder('transport/http'), folder('core')] },
    },
    {
      name: 'http-knows-no-host-adapter',
      comment: 'The HTTP transport is written against HttpRequestLike and HttpResponseLike: it never imports an adapter built on it.',
      severity: 'error',
      from: { path: folder('transport/http') },
      to: { path: folder('transport/fetch') },
    },
    {
      name: 'auth-is-self-contained',
      comment: 'The OAuth resource server (lib/auth) verifies tokens and builds challenges: it uses core/ and its own files (and npm modules), never a transport, the protocol or the router, so any host can call it.',
      severity: 'error',
      from: { path: folder('auth') },
      to: { path: '^lib/', pathNot: [folder('auth'), folder('core')] },
    },
    {
      name: 'transports-use-auth-through-its-api',
      comment: 'The HTTP transports take the resource server as a whole (oauthResourceServer: authenticate, metadata, challenges) and build bare challenges; its verifiers, key sets and caches are its own.',
      severity: 'error',
      from: { path: folder('transport') },
      to: { path: folder('auth'), pathNot: ['^lib/auth/oauth-resource-server\\.ts$', '^lib/auth/bearer-challenge\\.ts$'] },
    },
    {
      name: 'nothing-below-the-transport-imports-auth',
      comment: 'Tokens are verified at the edge (the HTTP guards); below it only the principal travels. What the layers below read of it (AuthInfo, the scopes) lives in core/.',
      severity: 'error',
      from: { path: ['protocol', 'router', 'definitions', 'schema', 'decorators', 'metadata', 'uri-template', 'results', 'context', 'core'].map(folder) },
      to: { path: folder('auth') },
    },
    {
      name: 'instances-come-from-the-server',
      comment: 'Provider, guard and interceptor instances come from the server\'s InstanceSource (its tsyringe child container, or another container through the resolve option), so nothing below lib/server/ reaches a tsyringe container; the adapter that reads tsyringe\'s records for the wiring check, and built-in members that carry its decorators, are the exceptions.',
      severity: 'error',
      from: { path: '^lib/', pathNot: [folder('server'), '^lib/definitions/tsyringe-metadata\\.adapter\\.ts$', '^lib/router/pipeline/built-ins/'] },
      to: { path: 'node_modules/tsyringe/' },
    },
    {
      name: 'nothing-imports-the-cli',
      comment: 'cli/ (the phantom-mcp binary) is an application of the framework: nothing else in lib/ imports it, so the library never loads the command line (lib/index.ts least of all).',
      severity: 'error',
      from: { path: '^lib/', pathNot: folder('cli') },
      to: { path: folder('cli') },
    },
    {
      name: 'cli-uses-the-public-api',
      comment: 'cli/ works as any user of the package does: through lib/index.ts, never a module behind it, so what it needs is public and it runs against any copy of the framework a module brings.',
      severity: 'error',
      from: { path: folder('cli') },
      to: { path: '^lib/', pathNot: [folder('cli'), '^lib/index\\.ts$'] },
    },
    {
      name: 'testing-kit-uses-the-public-api',
      comment: 'The testing kit (lib/testing, the phantom-mcp/testing subpath) is written as a user writes: against the public API (lib/index.ts) and the official SDK, so what it can do, a user can do.',
      severity: 'error',
      from: { path: folder('testing') },
      to: { path: '^lib/', pathNot: [folder('testing'), '^lib/index\\.ts$'] },
    },
    {
      name: 'nothing-imports-the-testing-kit',
      comment: 'lib/testing is a subpath of its own: the framework never imports it, so a server runs without it.',
      severity: 'error',
      from: { path: '^lib/', pathNot: folder('testing') },
      to: { path: folder('testing') },
    },
    {
      name: 'only-the-testing-kit-uses-the-sdk',
      comment: 'The official SDK is an optional peer dependency of the testing kit alone: nothing else in lib/ may need it at run time or in its types.',
      severity: 'error',
      from: { path: '^lib/', pathNot: folder('testing') },
      to: { path: 'node_modules/@modelcontextprotocol/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};
