import { CoreSplit } from '../harness/affinity';
import { HTTP_CONTENDERS, launch, launchTokenPair, type HttpContender, type HttpContenderId, type Profiling, type Running } from '../contenders';
import { CALLS, type Call } from '../harness/dialects';
import type { LoadSample } from '../harness/load';
import type { Progress } from '../harness/progress';
import { everyEntrant, interleave, type Entrant } from '../harness/rounds';
import { alternateSlices, type SliceFigures } from '../harness/slices';
import { warmUntilStable, type WarmupRecord } from '../harness/warmup';
import type { Plan } from '../plan';
import { bytes, firstLine } from '../report/format';
import { isMeasured, type ByContender, type RateFigures, type RetainedMemory, type SlicedFigures, type ThroughputFigures, type TokenCost } from '../report/results';
import { peers } from '../report/targets';
import { loadEntrant, rateFigures, showRate, type Rewarm } from './load-entrant';
import type { SuiteContext } from './suite-context';
import { tokenCost } from './token-cost';

/** The realistic tool's call (five validated fields), once `CALLS` has one. */
const REALISTIC: Call | undefined = (CALLS as Readonly<Record<string, Call>>).realistic;

/** A contender launched for the rounds, and whether it answered the realistic call too. */
interface Launched {
  readonly contender: HttpContender;
  readonly running: Running;
  readonly realistic: boolean;
}

/** One entrant of the rounds: a contender and the call it is driven with. */
interface Driven {
  readonly launched: Launched;
  readonly call: 'echo' | 'realistic';
  readonly entrant: Entrant<LoadSample>;
}

/**
 * `tools/call` of every HTTP contender, side by side: the echo tool, then (where the bench has it)
 * the realistic tool, each contender in its own process, interleaved in rounds, after each entrant
 * has been warmed until its CPU per call stopped moving (`warmUntilStable`, recorded). The generator
 * (this process) holds one core and every server the other (`CoreSplit`, where taskset exists),
 * so that each server's CPU time per call is its own. Each server's heap is read after a full
 * collection after the warm-up and after the last round: what it kept per request. Then the bearer
 * token's cost (`token-cost.ts`), on the same split.
 */
export async function throughputSuite({ plan, progress, profiling }: SuiteContext): Promise<ThroughputResults> {
  const echo: ByContender<RateFigures> = {};
  const realistic: ByContender<RateFigures> = {};
  const retained: Partial<Record<HttpContenderId, RetainedMemory>> = {};
  const costs: Partial<Record<HttpContenderId, TokenCost>> = {};
  const launched: Launched[] = [];
  const warmup: { echo?: WarmupByContender; realistic?: WarmupByContender } = {};
  let sliced: SlicedFigures | undefined;
  const split = CoreSplit.hold();
  try {
    for (const contender of HTTP_CONTENDERS) {
      progress.status(`throughput: starting ${contender.label}…`);
      const started = await launchForRounds(contender, profiling, realistic);
      if ('unavailable' in started) {
        echo[contender.id] = started;
        progress.line(`throughput: ${contender.label} is unavailable: ${firstLine(started.unavailable)}`);
        continue;
      }
      split.server(started.running.server.pid);
      launched.push(started);
    }
    const rewarm: Rewarm = { seconds: plan.throughput.rewarmSeconds, others: () => launched.map((l) => l.running.server.pid) };
    const driven: Driven[] = launched.flatMap((l) => [
      { launched: l, call: 'echo' as const, entrant: loadEntrant(l.contender.label, l.running, CALLS.echo, plan.throughput, plan.connections, rewarm) },
      ...(l.realistic
        ? [{ launched: l, call: 'realistic' as const, entrant: loadEntrant(`${l.contender.label}, realistic`, l.running, REALISTIC!, plan.throughput, plan.connections, rewarm) }]
        : []),
    ]);
    const entrants = driven.map((d) => d.entrant);
    for (const { launched: l, call, entrant } of driven) {
      const record = await warmUntilStable(entrant, plan.throughput.stability, (so) => progress.status(`throughput warm-up: ${entrant.label}: ${showWarmup(so)}`));
      (warmup[call] ??= {})[l.contender.id] = record;
      progress.line(`throughput warm-up: ${entrant.label}: ${showWarmup(record)}`);
    }
    const before = await Promise.all(launched.map((l) => l.running.server.memory()));
    const samples = await interleave('throughput', entrants, { rounds: plan.throughput.rounds, warmup: false }, progress, everyEntrant(showRate));
    const after = await Promise.all(launched.map((l) => l.running.server.memory()));
    driven.forEach(({ launched: l, call }, i) => ((call === 'echo' ? echo : realistic)[l.contender.id] = rateFigures(samples[i])));
    launched.forEach((l, i) => {
      const requests = driven.reduce((sum, d, k) => (d.launched === l ? sum + samples[k].reduce((s, sample) => s + sample.answered, 0) : sum), 0);
      if (requests === 0) return;
      const heapBefore = before[i].heapUsed;
      const heapAfter = after[i].heapUsed;
      retained[l.contender.id] = { heapBefore, heapAfter, requests, perRequest: (heapAfter - heapBefore) / requests };
    });
    progress.line(`throughput: heap retained per request: ${launched.map((l) => `${l.contender.label} ${bytes(retained[l.contender.id]?.perRequest)}`).join(' · ')}`);
    sliced = await slicedTargets(driven, { echo, realistic }, plan, progress);

    const { tokenSlices: slices, tokenSliceSeconds: sliceSeconds } = plan.throughput;
    for (const contender of HTTP_CONTENDERS.filter((c) => c.bearer)) {
      progress.status(`throughput: the token's cost, ${contender.label}, ${slices} slices of each…`);
      const pair = await launchTokenPair(contender, { tools: 1, templates: 0 }, CALLS.echo);
      if ('unavailable' in pair) {
        progress.line(`throughput: the token's cost, ${contender.label}, is unavailable: ${firstLine(pair.unavailable)}`);
        continue;
      }
      // The token's cost is CPU per call, with the server on a core of its own, away from the
      // generator, whose larger requests (the token is ~600 bytes of header) would otherwise
      // pollute the server's caches on the token's side only (0.80x unpinned, 0.97x pinned, same run).
      split.server(pair.plain.server.pid);
      try {
        const cost = await tokenCost(pair.plain, pair.authed, CALLS.echo, { slices, sliceSeconds }, plan.connections);
        if (!cost) continue;
        costs[contender.bearer!.against] = { ...cost, pinned: split.pinned };
        progress.line(`throughput: ${contender.label}: ${Math.round(cost.withUs)} us of server CPU per call vs ${Math.round(cost.withoutUs)} us without, one process, ${slices} alternating slices of each`);
      } finally {
        await pair.plain.server.stop();
      }
    }
  } finally {
    await Promise.all(launched.map((l) => l.running.server.stop()));
    split.release();
  }
  const figures: ThroughputFigures = { pinned: split.pinned, echo, ...(REALISTIC ? { realistic } : {}), retained, ...(sliced ? { slices: sliced } : {}), warmup: { windowSeconds: plan.throughput.warmupSeconds, stability: plan.throughput.stability, echo: warmup.echo ?? {}, ...(warmup.realistic ? { realistic: warmup.realistic } : {}) } };
  return { figures, tokenCost: costs };
}

type WarmupByContender = Partial<Record<HttpContenderId, WarmupRecord>>;

/**
 * The entrants the CPU targets compare, measured again after the rounds in alternating slices
 * (`alternateSlices`): bare, phantom's two eras without a token (both calls), and per call the
 * cheapest peers of the rounds (`plan.throughput.slices.peers` of them, so that a peer the rounds
 * misjudged still has its chance). Between slices a server only drains.
 */
async function slicedTargets(driven: readonly Driven[], rounds: Readonly<Record<'echo' | 'realistic', ByContender<RateFigures>>>, plan: Plan, progress: Progress): Promise<SlicedFigures> {
  const { cycles, seconds, peers: peerCount } = plan.throughput.slices;
  const cheapest = (call: 'echo' | 'realistic'): readonly HttpContenderId[] => peers()
    .flatMap(({ id }) => { const f = rounds[call][id]; return isMeasured(f) && f.cpuPerRequestUs !== undefined ? [{ id, cpu: f.cpuPerRequestUs }] : []; })
    .sort((a, b) => a.cpu - b.cpu).slice(0, peerCount).map((p) => p.id);
  const chosenPeers = { echo: cheapest('echo'), realistic: cheapest('realistic') };
  const chosen = driven.filter(({ launched: { contender }, call }) =>
    (contender.id === 'bare' && call === 'echo') || (contender.id.startsWith('phantom') && !contender.bearer) || chosenPeers[call].includes(contender.id));
  const timed = { rounds: 1, seconds, warmupSeconds: seconds };
  const entrants = chosen.map((d) => loadEntrant(d.entrant.label, d.launched.running, d.call === 'echo' ? CALLS.echo : REALISTIC!, timed, plan.connections));
  const measured = await alternateSlices(entrants, cycles, (cycle) => progress.status(`throughput slices: cycle ${cycle}/${cycles} of ${entrants.length} entrants, ${seconds} s each…`));
  const out: SlicedFigures = { sliceSeconds: seconds, cycles, echo: {}, realistic: {} };
  chosen.forEach((d, i) => {
    const figures = measured[i];
    if (figures) (out[d.call] as Partial<Record<HttpContenderId, SliceFigures>>)[d.launched.contender.id] = figures;
  });
  progress.line(`throughput slices (${cycles} × ${seconds} s): ${chosen.map((d, i) => `${d.entrant.label} ${measured[i] ? `${Math.round(measured[i]!.cpuPerCallUs)} us (${Math.round(measured[i]!.minUs)}–${Math.round(measured[i]!.maxUs)})` : 'no CPU figure'}`).join(' · ')}`);
  return out;
}

/** `4 windows, 4.0 s, stable: 52 51 52 µs`: how the warm-up ended and its last windows. */
function showWarmup(record: WarmupRecord): string {
  const last = record.costPerCallUs.slice(-4).map((us) => Math.round(us)).join(' ');
  return `${record.windows} window${record.windows === 1 ? '' : 's'}, ${record.seconds.toFixed(1)} s, ${record.stable ? 'stable' : 'still moving'}: ${last} µs ${record.cpu ? 'CPU' : 'wall'}/call`;
}

/**
 * Starts a contender answering the echo call and, where the bench has it and the contender has no
 * bearer token, the realistic one. A contender that cannot answer the realistic call is started
 * again for the echo alone, and its realistic figure is unavailable with the reason.
 */
async function launchForRounds(contender: HttpContender, profiling: Profiling, realistic: ByContender<RateFigures>): Promise<Launched | { unavailable: string }> {
  const served = { tools: 1, templates: 0 };
  if (REALISTIC && contender.echoOnly) realistic[contender.id] = { unavailable: contender.echoOnly };
  else if (REALISTIC && !contender.bearer) {
    const both = await launch(contender, served, [CALLS.echo, REALISTIC], profiling);
    if (!('unavailable' in both)) return { contender, running: both, realistic: true };
    realistic[contender.id] = both;
  }
  const started = await launch(contender, served, [CALLS.echo], profiling);
  return 'unavailable' in started ? started : { contender, running: started, realistic: false };
}

export interface ThroughputResults {
  readonly figures: ThroughputFigures;
  readonly tokenCost: Partial<Record<HttpContenderId, TokenCost>>;
}
