import type { HttpContenderId } from '../contenders';
import { ratio } from '../harness/stats';
import { bytes, count, millis, rate } from './format';
import { isMeasured, type BenchResults, type Measured, type RateFigures, type ScaleOp, type Target, type TokenCost } from './results';

/** The per-session heap budget of the issue: 4 KB. */
export const SESSION_HEAP_BUDGET = 4096;

const ERAS: readonly { readonly id: HttpContenderId & `phantom-${string}`; readonly label: string; readonly withAuth: HttpContenderId }[] = [
  { id: 'phantom-session', label: 'session era', withAuth: 'phantom-session-auth' },
  { id: 'phantom-stateless', label: 'stateless era', withAuth: 'phantom-stateless-auth' },
];

/** Issue 10: a verified bearer token on every request (cached by token until it expires) costs at most 15% of the echo rate. */
const AUTH_SHARE = '>= 0.85';

/** The targets of issues 5 and 10, each computed from figures measured in this run. */
export function targetsOf(results: BenchResults): Target[] {
  return [
    ...(results.throughput ? throughputTargets(results.throughput, results.tokenCost ?? {}) : []),
    ...(results.memory ? [memoryTarget(results.memory)] : []),
    ...(results.scale ? scaleTargets(results.scale) : []),
    ...(results.stdio ? [stdioTarget(results.stdio)] : []),
  ];
}

function throughputTargets(throughput: NonNullable<BenchResults['throughput']>, costs: NonNullable<BenchResults['tokenCost']>): Target[] {
  const bare = figures(throughput.bare);
  const sdkBest = [figures(throughput['sdk-stateless']), figures(throughput['sdk-stateful'])]
    .filter((f): f is RateFigures => f !== undefined)
    .sort((a, b) => b.rps - a.rps)[0];
  const sdkMode = sdkBest === figures(throughput['sdk-stateful']) ? 'stateful' : 'stateless';
  return ERAS.flatMap(({ id, label, withAuth }) => {
    const phantom = figures(throughput[id]);
    const authed = figures(throughput[withAuth]);
    const missing = unavailableDetail(throughput[id], id);
    return [
      target(`tools/call throughput, ${label}: at least 0.5× bare node:http`, ratio(phantom?.rps, bare?.rps), '>= 0.5',
        missing ?? `${rate(phantom?.rps)}/s vs ${rate(bare?.rps)}/s`),
      target(`tools/call throughput, ${label}: at least 5× the SDK's best mode`, ratio(phantom?.rps, sdkBest?.rps), '>= 5',
        missing ?? `${rate(phantom?.rps)}/s vs ${rate(sdkBest?.rps)}/s (SDK ${sdkMode})`),
      target(`tools/call p99 latency, ${label}: at most 2× bare node:http`, ratio(phantom?.p99, bare?.p99), '<= 2',
        missing ?? `${millis(phantom?.p99)} vs ${millis(bare?.p99)}`),
      authTarget(label, costs[id], phantom, authed, missing ?? unavailableDetail(throughput[withAuth], withAuth)),
    ];
  });
}

/**
 * What a verified token costs, as calls served per CPU second with it against without: the
 * server's CPU time per call, which the load generator's limits do not hide, from the alternating
 * slices of `suites/token-cost.ts` (rounds seconds apart drift too far for a 15% bound). Where
 * /proc is missing, the requests per second of the rounds stand in.
 */
function authTarget(label: string, cost: TokenCost | undefined, plain: RateFigures | undefined, authed: RateFigures | undefined, missing: string | undefined): Target {
  const rates = `${rate(authed?.rps)}/s vs ${rate(plain?.rps)}/s in the rounds`;
  const detail = missing ?? (cost
    ? `${Math.round(cost.withUs)} us vs ${Math.round(cost.withoutUs)} us of server CPU per call, one process serving both, ${cost.slices} alternating slices of each; ${rates}`
    : rates);
  return target(
    `tools/call with a verified bearer JWT on every request, ${label}: at least 0.85× the calls per CPU second without`,
    cost ? ratio(cost.withoutUs, cost.withUs) : ratio(authed?.rps, plain?.rps),
    AUTH_SHARE,
    detail,
  );
}

function memoryTarget(memory: NonNullable<BenchResults['memory']>): Target {
  const phantom = memory['phantom-session'];
  const sdk = memory['sdk-stateful'];
  const most = isMeasured(phantom) ? phantom.bySessions[phantom.bySessions.length - 1] : undefined;
  const sdkMost = isMeasured(sdk) ? sdk.bySessions[sdk.bySessions.length - 1] : undefined;
  return target(
    `heap per idle session with ${most ? count(most.sessions) : 'many'} sessions, session era: at most 4 KB`,
    ratio(most?.heapPerSession, SESSION_HEAP_BUDGET),
    '<= 1',
    unavailableDetail(phantom, 'phantom-session') ?? `${bytes(most?.heapPerSession)} per session, ratio to 4 KB (SDK stateful: ${bytes(sdkMost?.heapPerSession)})`,
  );
}

function scaleTargets(scale: NonNullable<BenchResults['scale']>): Target[] {
  const smallest = scale.sizes[0];
  const largest = scale.sizes[scale.sizes.length - 1];
  const ops: readonly { op: ScaleOp; what: string }[] = [
    { op: 'tools/call', what: `tools/call with ${count(largest)} tools` },
    { op: 'resources/read', what: `resources/read with ${count(largest)} templates` },
    { op: 'tools/list', what: `one page of tools/list with ${count(largest)} tools` },
  ];
  return ops.flatMap(({ op, what }) => ERAS.map(({ id, label }) => {
    const measured = scale.ops[op]?.[id];
    const bySize = isMeasured(measured) ? measured.bySize : undefined;
    const small = bySize?.[smallest]?.rps;
    const large = bySize?.[largest]?.rps;
    return target(`${what}, ${label}: at most 1.5× the cost with ${smallest}`, ratio(small, large), '<= 1.5',
      unavailableDetail(measured, id) ?? `${rate(large)}/s with ${count(largest)}, ${rate(small)}/s with ${smallest}`);
  }));
}

function stdioTarget(stdio: NonNullable<BenchResults['stdio']>): Target {
  const phantom = stdio['phantom-stdio'];
  const sdk = stdio['sdk-stdio'];
  const ours = isMeasured(phantom) ? phantom.rtps : undefined;
  const theirs = isMeasured(sdk) ? sdk.rtps : undefined;
  return target('stdio round trips: at least 3× the SDK over stdio', ratio(ours, theirs), '>= 3',
    unavailableDetail(phantom, 'phantom-stdio') ?? `${rate(ours)}/s vs ${rate(theirs)}/s`);
}

function target(name: string, value: number | null, goal: string, detail: string): Target {
  const [op, bound] = goal.split(' ');
  const holds = value !== null && (op === '>=' ? value >= Number(bound) : value <= Number(bound));
  return { name, ratio: value === null ? null : Number(value.toFixed(3)), goal, holds, detail };
}

function figures(value: Measured<RateFigures> | undefined): RateFigures | undefined {
  return isMeasured(value) ? value : undefined;
}

function unavailableDetail(value: object | undefined, id: string): string | undefined {
  if (value === undefined) return `${id} was not measured`;
  return isMeasured(value) ? undefined : `${id} unavailable: ${(value as { unavailable: string }).unavailable.split('\n')[0]}`;
}
