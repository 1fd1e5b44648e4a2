import type { IncomingMessage, ServerResponse } from 'node:http';
import { PhantomError } from '../../core/errors';
import { HTTP_DEFAULTS, type HealthOptions, type ReadinessCheck } from './http-options';

/** Answers one probe request. */
export type Probe = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface ProbeAnswer {
  readonly status: number;
  readonly body: string;
}

const answer = (status: number, state: string): ProbeAnswer => Object.freeze({ status, body: JSON.stringify({ status: state }) });

const LIVE = answer(200, 'ok');
const READY = answer(200, 'ready');
const DRAINING = answer(503, 'draining');
const NOT_READY = answer(503, 'not ready');

/** The resolved settings of the probes. */
export interface HealthSettings {
  readonly probes: ReadonlyMap<string, Probe>;
  readonly drainDelayMs: number;
}

/**
 * The liveness and readiness probes of one listener, by path (none when `options` is `false`).
 * `draining` says whether `close()` has started. Bad settings are refused here, all at once, so
 * `listen()` fails before it binds.
 */
export function healthSettings(options: HealthOptions | false | undefined, mcpPath: string, draining: () => boolean): HealthSettings {
  if (options === false) return { probes: new Map(), drainDelayMs: 0 };
  const livenessPath = options?.livenessPath ?? HTTP_DEFAULTS.livenessPath;
  const readinessPath = options?.readinessPath ?? HTTP_DEFAULTS.readinessPath;
  const timeoutMs = options?.readinessCheckTimeoutMs ?? HTTP_DEFAULTS.readinessCheckTimeoutMs;
  const drainDelayMs = options?.drainDelayMs ?? HTTP_DEFAULTS.drainDelayMs;
  const checks = options?.ready === undefined ? [] : typeof options.ready === 'function' ? [options.ready] : [...options.ready];
  const problems = [
    ...[livenessPath, readinessPath].filter((path) => !path.startsWith('/')).map((path) => `a probe path must start with "/", not ${JSON.stringify(path)}`),
    ...(livenessPath === readinessPath ? [`livenessPath and readinessPath must differ (both are ${livenessPath})`] : []),
    ...[livenessPath, readinessPath].filter((path) => path === mcpPath).map((path) => `a probe cannot share the MCP endpoint's path ${path}`),
    ...(Number.isFinite(timeoutMs) && timeoutMs > 0 ? [] : [`readinessCheckTimeoutMs must be a number above 0, not ${timeoutMs}`]),
    ...(Number.isFinite(drainDelayMs) && drainDelayMs >= 0 ? [] : [`drainDelayMs must be a number of at least 0, not ${drainDelayMs}`]),
    ...(checks.every((check) => typeof check === 'function') ? [] : ['each readiness check in ready must be a function']),
  ];
  if (problems.length > 0) throw new PhantomError('health_invalid', `listen({ health }): ${problems.join('; ')}`);
  const readiness = new Readiness(checks, timeoutMs);
  return {
    drainDelayMs,
    probes: new Map([
      [livenessPath, probe(async () => LIVE)],
      [readinessPath, probe(async () => (draining() ? DRAINING : (await readiness.verdict()) ? READY : NOT_READY))],
    ]),
  };
}

/** GET and HEAD get the answer (HEAD without its body), other methods 405; never cached by a proxy. */
function probe(answerOf: () => Promise<ProbeAnswer>): Probe {
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    const { status, body } = await answerOf();
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * The readiness checks, run together; probes that arrive while they run share that run's
 * verdict, so a flood of probes costs one run at a time, not one per probe.
 */
class Readiness {
  private running?: Promise<boolean>;

  constructor(private readonly checks: readonly ReadinessCheck[], private readonly timeoutMs: number) {}

  verdict(): Promise<boolean> {
    if (this.checks.length === 0) return Promise.resolve(true);
    return (this.running ??= this.run().finally(() => { this.running = undefined; }));
  }

  private async run(): Promise<boolean> {
    const passed = await Promise.all(this.checks.map((check) => passes(check, this.timeoutMs)));
    return passed.every(Boolean);
  }
}

/** Whether `check` answers `true` within `timeoutMs`; a throw, a rejection or silence is a failure. */
async function passes(check: ReadinessCheck, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<false>((resolve) => { timer = setTimeout(resolve, timeoutMs, false); });
  try {
    return (await Promise.race([Promise.resolve().then(check), silence])) === true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
