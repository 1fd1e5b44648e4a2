import { join } from 'node:path';
import { CALLS, PLAIN_JSON_RPC, SESSION_ERA, SESSIONLESS, STATELESS_ERA, probe, probeRefusals, type Call, type Dialect, type Prepared } from './harness/dialects';
import { benchIssuer } from './harness/bench-issuer';
import { ElicitingClient } from './harness/eliciting-client';
import { ServerProcess } from './harness/server-process';
import { PLAIN_PATH } from './servers/bench-channel';
import type { ClusterSetupId } from './report/results';

export type HttpContenderId =
  | 'bare' | 'sdk-stateless' | 'sdk-stateful' | 'sdk-stateful-sse'
  | PeerContenderId
  | 'phantom-session' | 'phantom-stateless' | 'phantom-session-auth' | 'phantom-stateless-auth';
/** The other frameworks' current lines (issue 14): SDK 2.x, MCP-Nest 2.x, fastmcp 4.x. */
export type PeerContenderId = 'sdk2-modern' | 'sdk2-legacy' | 'mcp-nest-stateless' | 'mcp-nest-stateful' | 'fastmcp' | 'fastmcp-stateless';
export type StdioContenderId = 'bare-stdio' | 'sdk-stdio' | 'phantom-stdio';
export type ContenderId = HttpContenderId | StdioContenderId;

/**
 * What a contender's server registers: `echo` last among `tools` (and the realistic `register`
 * beside them, always), the echo template last among `templates`.
 */
export interface Served {
  readonly tools: number;
  readonly templates: number;
  /** phantom's page size for the list methods (the SDK does not page). */
  readonly pageSize?: number;
}

export interface HttpContender {
  readonly id: HttpContenderId;
  readonly label: string;
  /** The script under `servers/` and its arguments. */
  readonly script: string;
  readonly args: (served: Served) => string[];
  readonly dialect: Dialect;
  /**
   * Every request carries a bearer token of the bench's own issuer, which the server verifies;
   * the token's cost is measured against the named contender, the same server without a token.
   */
  readonly bearer?: { readonly against: HttpContenderId };
  /** The npm packages whose exact installed versions the results record (`peer-versions.ts`). */
  readonly packages?: readonly string[];
  /**
   * The most templates the server can register (MCP-Nest declares templates only as decorated
   * methods); a suite must not ask for more, and the server refuses to start if it does.
   */
  readonly maxTemplates?: number;
  /**
   * Why the memory suite leaves it out, when it holds sessions yet cannot open thousands of them
   * in a bench's time (fastmcp waits about a second per new session for the client's capabilities).
   */
  readonly noIdleSessions?: string;
  /** Why it serves the echo tool only (bare validates nothing, so it cannot refuse what the realistic probe sends). */
  readonly echoOnly?: string;
}

const registryArgs = ({ tools, templates }: Served) => ['--tools', String(tools), '--templates', String(templates)];

const SDK1 = ['@modelcontextprotocol/sdk'];
const SDK2 = ['@modelcontextprotocol/server', '@modelcontextprotocol/node', '@modelcontextprotocol/core'];
const MCP_NEST = ['@rekog/mcp-nest', '@nestjs/core', '@nestjs/microservices', '@nestjs/platform-express', '@modelcontextprotocol/server'];

/** In the order of every round: each era's bearer-token contender runs right after it, so the two share the machine's drift. */
export const HTTP_CONTENDERS: readonly HttpContender[] = [
  { id: 'bare', label: 'bare node:http', script: 'bare.server', args: () => [], dialect: PLAIN_JSON_RPC, echoOnly: "it serves the echo only (it validates nothing, so it could not refuse the probe's bad registrations)" },
  { id: 'sdk-stateless', label: 'SDK stateless', script: 'sdk.server', args: (s) => ['--mode', 'stateless', ...registryArgs(s)], dialect: SESSIONLESS, packages: SDK1 },
  { id: 'sdk-stateful', label: 'SDK stateful', script: 'sdk.server', args: (s) => ['--mode', 'stateful', ...registryArgs(s)], dialect: SESSION_ERA, packages: SDK1 },
  // The transport's default answers a POST as a short SSE stream; the JSON answers above are its
  // documented option. Every documented mode is counted, and the best one per workload compared.
  {
    id: 'sdk-stateful-sse', label: 'SDK stateful, SSE answers (default)', script: 'sdk.server', args: (s) => ['--mode', 'stateful', '--answers', 'sse', ...registryArgs(s)],
    dialect: SESSION_ERA, packages: SDK1, noIdleSessions: 'its sessions are SDK stateful\'s; only the answers differ',
  },
  // SDK 2.x: one `createMcpHandler` endpoint serves both eras; a process per era, as for phantom.
  { id: 'sdk2-modern', label: 'SDK 2 createMcpHandler, 2026-07-28', script: 'sdk2.server', args: registryArgs, dialect: STATELESS_ERA, packages: SDK2 },
  { id: 'sdk2-legacy', label: 'SDK 2 createMcpHandler, 2025-11-25', script: 'sdk2.server', args: registryArgs, dialect: SESSIONLESS, packages: SDK2 },
  // MCP-Nest's default mode answers a 2025-era request statelessly (its own wiring, a server per
  // request); its stateful mode keeps a session. Both are sent 2025-11-25, so that the two differ
  // by the mode alone (a 2026-07-28 request goes to the SDK 2 modern path, measured above).
  {
    id: 'mcp-nest-stateless', label: 'MCP-Nest default (stateless)', script: 'mcp-nest.server', dialect: SESSIONLESS, packages: MCP_NEST, maxTemplates: 1,
    args: (s) => ['--mode', 'default', ...registryArgs(s)],
  },
  {
    id: 'mcp-nest-stateful', label: 'MCP-Nest stateful', script: 'mcp-nest.server', dialect: SESSION_ERA, packages: MCP_NEST, maxTemplates: 1,
    args: (s) => ['--mode', 'stateful', ...registryArgs(s)],
  },
  {
    id: 'fastmcp', label: 'fastmcp httpStream', script: 'fastmcp.server', args: registryArgs, dialect: SESSION_ERA, packages: ['fastmcp'],
    noIdleSessions: 'a new fastmcp session waits about 1 s for the client capabilities: 10,000 would take hours',
  },
  {
    id: 'fastmcp-stateless', label: 'fastmcp httpStream, stateless', script: 'fastmcp.server', args: (s) => ['--stateless', 'yes', ...registryArgs(s)], dialect: SESSIONLESS, packages: ['fastmcp'],
  },
  {
    id: 'phantom-session', label: 'phantom session era', script: 'phantom.server', dialect: SESSION_ERA,
    args: (s) => [...registryArgs(s), '--page-size', String(s.pageSize ?? 100)],
  },
  {
    id: 'phantom-session-auth', label: 'phantom session era, bearer JWT', script: 'phantom.server', dialect: SESSION_ERA, bearer: { against: 'phantom-session' },
    args: (s) => [...registryArgs(s), '--page-size', String(s.pageSize ?? 100)],
  },
  {
    id: 'phantom-stateless', label: 'phantom stateless era', script: 'phantom.server', dialect: STATELESS_ERA,
    args: (s) => [...registryArgs(s), '--page-size', String(s.pageSize ?? 100)],
  },
  {
    id: 'phantom-stateless-auth', label: 'phantom stateless era, bearer JWT', script: 'phantom.server', dialect: STATELESS_ERA, bearer: { against: 'phantom-stateless' },
    args: (s) => [...registryArgs(s), '--page-size', String(s.pageSize ?? 100)],
  },
];

export const STDIO_CONTENDERS: readonly { readonly id: StdioContenderId; readonly label: string; readonly script: string; readonly initialize: boolean }[] = [
  { id: 'bare-stdio', label: 'bare stdio', script: 'bare-stdio.server', initialize: false },
  { id: 'sdk-stdio', label: 'SDK stdio', script: 'sdk-stdio.server', initialize: true },
  { id: 'phantom-stdio', label: 'phantom stdio', script: 'phantom-stdio.server', initialize: true },
];

export function httpContender(id: HttpContenderId): HttpContender {
  return HTTP_CONTENDERS.find((c) => c.id === id)!;
}

/**
 * Where CPU profiles go, and of which contenders (`--profile phantom-session,phantom-stateless`):
 * one folder per contender and registry, e.g. `phantom-session-1-tools-0-templates`.
 */
export interface Profiling {
  readonly ids: ReadonlySet<string>;
  readonly dir: string;
}

/** A contender running and answering every call it will be measured on. */
export interface Running {
  readonly server: ServerProcess;
  readonly prepared: ReadonlyMap<Call, Prepared>;
}

/** One server process answering the same call with a token (`authed`) and without (`plain`). */
export interface TokenPair {
  readonly plain: Running;
  readonly authed: Running;
}

/**
 * The bearer-token contender's server with `--pair`: its endpoint with a token and, under
 * `/plain`, without, in the one process. Each side gets its own connection (in the session era,
 * its own session: a session belongs to the principal that opened it).
 */
export async function launchTokenPair(contender: HttpContender, served: Served, call: Call): Promise<TokenPair | { unavailable: string }> {
  let server: ServerProcess | undefined;
  try {
    const issuer = await benchIssuer();
    server = await ServerProcess.start(contender.script, [...contender.args(served), ...issuer.serverArgs, '--pair'], {});
    const url = server.url!;
    const side = async (at: string, headers: Record<string, string>): Promise<Running> => {
      const request = (await contender.dialect.connect(at, headers)).prepare(call);
      await probe(request, call);
      return { server: server!, prepared: new Map([[call, request]]) };
    };
    return {
      plain: await side(url.replace(/\/mcp$/, PLAIN_PATH), {}),
      authed: await side(url, { authorization: `Bearer ${issuer.token}` }),
    };
  } catch (error) {
    await server?.stop();
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Starts a contender in its own process, opens what its dialect needs, and checks each call once.
 * A contender that cannot answer (the stateless era before it lands, say) is reported as
 * unavailable, with the reason, rather than failing the run.
 */
export async function launch(
  contender: HttpContender, served: Served, calls: readonly Call[], profiling: Profiling, onStarted?: (server: ServerProcess) => void,
): Promise<Running | { unavailable: string }> {
  let server: ServerProcess | undefined;
  try {
    const issuer = contender.bearer ? await benchIssuer() : undefined;
    server = await ServerProcess.start(contender.script, [...contender.args(served), ...(issuer?.serverArgs ?? [])], {
      profileDir: profiling.ids.has(contender.id) ? join(profiling.dir, `${contender.id}-${served.tools}-tools-${served.templates}-templates`) : undefined,
    });
    onStarted?.(server);
    const connection = await contender.dialect.connect(server.url!, issuer ? { authorization: `Bearer ${issuer.token}` } : {});
    const prepared = new Map<Call, Prepared>();
    for (const call of calls) {
      const request = connection.prepare(call);
      await probe(request, call);
      await probeRefusals(connection, call);
      prepared.set(call, request);
    }
    return { server, prepared };
  } catch (error) {
    await server?.stop();
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}

/** One setup of the cluster suite: its nodes, and where they keep sessions, event logs and the bus. */
export interface ClusterSetup {
  readonly id: ClusterSetupId;
  readonly label: string;
  readonly nodes: number;
  /** `store: redis(...)` on every node (one Redis, one key prefix per setup), else the in-memory default. */
  readonly redis: boolean;
}

/**
 * In the order of every round; all behind the same round-robin proxy. The single node without
 * Redis is what a deployment scales out from (the targets compare against it); the single node on
 * Redis splits the difference into what Redis costs and what the second node costs.
 */
export const CLUSTER_SETUPS: readonly ClusterSetup[] = [
  { id: 'one-node-memory', label: 'one node, in memory', nodes: 1, redis: false },
  { id: 'one-node-redis', label: 'one node on Redis', nodes: 1, redis: true },
  { id: 'two-nodes-redis', label: 'two nodes on one Redis', nodes: 2, redis: true },
];

/** A cluster setup running, behind its proxy, with a session for each measure. */
export interface RunningCluster {
  readonly nodes: readonly ServerProcess[];
  readonly proxy: ServerProcess;
  /** The echo `tools/call` of one session, through the proxy. */
  readonly echo: Prepared;
  /** Another session, which answers the asking tool's elicitation. */
  readonly asker: ElicitingClient;
  stop(): Promise<void>;
}

/**
 * Starts a setup's nodes (`servers/phantom-cluster.server`), then its proxy
 * (`servers/round-robin-proxy.server`) in front of them, and checks both measures once through
 * the proxy. A setup that cannot start or answer is reported as unavailable, with the reason.
 */
export async function launchCluster(setup: ClusterSetup, redisUrl: string, prefix: string, profiling: Profiling): Promise<RunningCluster | { unavailable: string }> {
  const started: ServerProcess[] = [];
  let asker: ElicitingClient | undefined;
  try {
    for (let i = 0; i < setup.nodes; i++) {
      started.push(await ServerProcess.start('phantom-cluster.server', setup.redis ? ['--redis-url', redisUrl, '--prefix', prefix] : [], {
        profileDir: profiling.ids.has(setup.id) ? join(profiling.dir, `${setup.id}-node-${i + 1}`) : undefined,
      }));
    }
    const nodes = [...started];
    const proxy = await ServerProcess.start('round-robin-proxy.server', ['--upstreams', nodes.map((node) => new URL(node.url!).port).join(',')]);
    started.push(proxy);
    const echo = (await SESSION_ERA.connect(proxy.url!)).prepare(CALLS.echo);
    await probe(echo, CALLS.echo);
    asker = await ElicitingClient.open(proxy.url!);
    await asker.ask(0);
    const client = asker;
    return {
      nodes, proxy, echo, asker,
      stop: async () => {
        client.close();
        await Promise.all(started.map((child) => child.stop()));
      },
    };
  } catch (error) {
    asker?.close();
    await Promise.all(started.map((child) => child.stop()));
    return { unavailable: error instanceof Error ? error.message : String(error) };
  }
}
