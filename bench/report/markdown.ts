import { CLUSTER_SETUPS, HTTP_CONTENDERS, STDIO_CONTENDERS } from '../contenders';
import { costRatio, ratio } from '../harness/stats';
import { bytes, count, firstLine, micros, millis, percent, rate, times } from './format';
import type { WarmupRecord } from '../harness/warmup';
import { isMeasured, type BenchResults, type Measured, type RateFigures, type ScaleContenderId, type ScaleOp, type SlicedFigures } from './results';

/** The results as the Markdown tables of `results/latest.md` (and of the README). */
export function markdownOf(results: BenchResults): string {
  return [
    `# phantom-mcp benchmarks`,
    '',
    provenance(results),
    '',
    'Every ratio compares figures measured in this run, on this machine; absolute figures vary',
    'from machine to machine, ratios much less. Medians over the rounds.',
    '',
    ...section(results.targets && targetsTable(results)),
    ...section(results.throughput && throughputTable(results)),
    ...section(results.memory && memoryTable(results)),
    ...section(results.scale && scaleTables(results)),
    ...section(results.startup && startupTable(results)),
    ...section(results.cold && coldTable(results)),
    ...section(results.stdio && stdioTable(results)),
    ...section(results.cluster && clusterTables(results)),
  ].join('\n');
}

export function provenance(results: BenchResults): string {
  const { machine } = results;
  const minutes = Math.floor(results.elapsedSeconds / 60);
  const seconds = Math.round(results.elapsedSeconds % 60);
  return `${results.plan === 'full' ? 'Full' : 'Quick'} run of ${results.date.slice(0, 16).replace('T', ' ')} UTC (${minutes} min ${seconds} s) on `
    + `${machine.nproc} × ${machine.cpu} (\`nproc\` ${machine.nproc}), Node ${machine.node}, ${machine.platform}.`;
}

function section(lines: string[] | undefined): string[] {
  return lines ? [...lines, ''] : [];
}

function targetsTable({ targets = [] }: BenchResults): string[] {
  return [
    '## Targets (issues 14 and 11)',
    '',
    '| Target | Ratio | Goal | Holds | Figures |',
    '| --- | ---: | :---: | :---: | --- |',
    ...targets.map((t) => `| ${t.name} | ${t.unit === 'ms' ? signedMillis(t.ratio) : times(t.ratio)} | ${t.goal}${t.unit ? ` ${t.unit}` : ''} | ${t.holds ? 'yes' : '**no**'} | ${t.detail} |`),
  ];
}

function throughputTable({ throughput, tokenCost = {}, connections }: BenchResults): string[] {
  const { echo, realistic, retained, pinned } = throughput!;
  const bare = figures(echo.bare);
  const rounds = Object.values(echo).find(isMeasured)?.rounds.length ?? 0;
  const calls = realistic ? ' (both calls)' : '';
  const cores = pinned ? 'the generator on one core, each server on the other' : 'nothing pinned (no taskset, or one core)';
  const lines = [
    `## tools/call over Streamable HTTP (${connections} connections, ${rounds} round${rounds === 1 ? '' : 's'}; ${cores})`,
    '',
    '### The echo tool',
    '',
    '| Contender | Requests/s | p50 | p99 | Server CPU per call | CPU vs bare | Generator CPU | Heap retained per request |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...HTTP_CONTENDERS.map(({ id, label }) => {
      const f = echo[id];
      if (!isMeasured(f)) return unavailableRow(label, f, 7);
      return `| ${label} | ${rate(f.rps)}${failures(f)} | ${millis(f.p50)} | ${millis(f.p99)} | ${cpuSpread(f)} `
        + `| ${times(ratio(f.cpuPerRequestUs, bare?.cpuPerRequestUs))} | ${percent(f.generatorCpuShare)} | ${bytes(retained[id]?.perRequest)} |`;
    }),
    '',
    `Server CPU per call is the server process's user and system time over the answers of each round (from \`/proc/<pid>/stat\`); `
      + `the generator's is this process's CPU time over the round's wall time${pinned ? ', 100% being its core busy throughout: near it, the generator is the limit and the requests per second say little about the server' : ''}. `
      + `Heap retained: after a full collection, after the last round less after the warm-up, over every request the server answered in between${calls}. `
      + `CPU per call is the median of the rounds, (lowest–highest) beside it.${noise(bare)}`,
  ];
  if (realistic) {
    lines.push('', '### The realistic tool (five validated fields)', '',
      '| Contender | Requests/s | p50 | p99 | Server CPU per call | Generator CPU |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...HTTP_CONTENDERS.filter(({ id }) => id in realistic).map(({ id, label }) => {
        const f = realistic[id];
        if (!isMeasured(f)) return unavailableRow(label, f, 5);
        return `| ${label} | ${rate(f.rps)}${failures(f)} | ${millis(f.p50)} | ${millis(f.p99)} | ${cpuSpread(f)} | ${percent(f.generatorCpuShare)} |`;
      }));
  }
  if (throughput!.slices) lines.push('', ...slicesTable(throughput!.slices));
  if (throughput!.warmup) lines.push('', ...warmupTable(throughput!.warmup));
  const costs = HTTP_CONTENDERS.filter(({ id }) => tokenCost[id] !== undefined);
  if (costs.length > 0) {
    lines.push('', '### A verified bearer JWT on every request (one server process serving both, alternating slices)', '',
      '| Contender | Server CPU per call without | with the token | Calls per CPU second, with over without |',
      '| --- | ---: | ---: | ---: |',
      ...costs.map(({ id, label }) => {
        const cost = tokenCost[id]!;
        return `| ${label} | ${micros(cost.withoutUs)} | ${micros(cost.withUs)} | ${times(ratio(cost.withoutUs, cost.withUs))} |`;
      }));
  }
  return lines;
}

/** `52 µs (50–55)`: the median and the rounds' range. */
function cpuSpread(f: RateFigures): string {
  if (f.cpuMinUs === undefined || f.cpuMaxUs === undefined || f.rounds.length < 2) return micros(f.cpuPerRequestUs);
  return `${micros(f.cpuPerRequestUs)} (${Math.round(f.cpuMinUs)}–${Math.round(f.cpuMaxUs)})`;
}

/** The run's noise: how far apart the bare responder's own rounds are, which does nothing but parse and answer. */
function noise(bare: RateFigures | undefined): string {
  if (bare?.cpuMinUs === undefined || bare.cpuMaxUs === undefined || !bare.cpuPerRequestUs || bare.rounds.length < 2) return '';
  const spread = (bare.cpuMaxUs - bare.cpuMinUs) / bare.cpuPerRequestUs;
  return ` The noise of this run: bare's own rounds lie within ${percent(spread)} of their median (lowest to highest); ratios closer to a goal than that are not settled.`;
}

/** The CPU targets' figures: the alternating slices after the rounds, each entrant's cost over all its slices. */
function slicesTable(slices: SlicedFigures): string[] {
  const bare = slices.echo.bare;
  const rows = (call: 'echo' | 'realistic') => HTTP_CONTENDERS.flatMap(({ id, label }) => {
    const f = slices[call][id];
    if (!f) return [];
    const against = call === 'echo' ? ratio(f.cpuPerCallUs, bare?.cpuPerCallUs) : ratio(f.cpuPerCallUs, slices.echo[id]?.cpuPerCallUs);
    return [`| ${label}${call === 'realistic' ? ', realistic' : ''} | ${micros(f.cpuPerCallUs)} | ${Math.round(f.minUs)}–${Math.round(f.maxUs)} µs | ${times(against)} | ${count(f.answered)} |`];
  });
  const spread = bare ? ` Bare's own slices lie within ${percent((bare.maxUs - bare.minUs) / bare.cpuPerCallUs)} of its figure: one slice alone says little; the sums, taken side by side, are what the targets compare.` : '';
  return [
    `### The CPU targets' figures (${slices.cycles} alternating slices of ${slices.sliceSeconds} s each, after the rounds)`,
    '',
    '| Entrant | Server CPU per call | Slices, lowest–highest | vs bare (echo) / vs its own echo (realistic) | Calls |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows('echo'),
    ...rows('realistic'),
    '',
    'Bare, phantom\'s two eras (both calls) and the cheapest peers of the rounds, one slice each in turn, the order reversed every cycle (A B C, C B A...), '
      + `each entrant's CPU summed over all its slices over all their answers.${spread}`,
  ];
}

/** How each entrant was warmed before the rounds: windows, seconds, and whether its cost settled. */
function warmupTable(warmup: NonNullable<NonNullable<BenchResults['throughput']>['warmup']>): string[] {
  const { windowSeconds, stability: s } = warmup;
  const rule = `windows of ${windowSeconds} s until ${s.windows} in a row agree within ${percent(s.within)}, at most ${s.capSeconds} s`;
  const row = (label: string, record: WarmupRecord | undefined) => record === undefined ? [] : [
    `| ${label} | ${record.windows} | ${record.seconds.toFixed(1)} s | ${record.stable ? 'yes' : '**no** (cap)'} | ${record.costPerCallUs.slice(-3).map((us) => Math.round(us)).join(', ')} µs ${record.cpu ? 'CPU' : 'wall'} |`,
  ];
  return [
    `### Warm-up (${rule})`,
    '',
    '| Entrant | Windows | Took | Settled | Last windows, per call |',
    '| --- | ---: | ---: | :---: | --- |',
    ...HTTP_CONTENDERS.flatMap(({ id, label }) => [...row(label, warmup.echo[id]), ...row(`${label}, realistic`, warmup.realistic?.[id])]),
  ];
}

/** A fresh process per contender and round: its start-up CPU, then its CPU per call to each checkpoint, beside its warm cost. */
function coldTable({ cold, throughput }: BenchResults): string[] {
  const { checkpoints, byContender } = cold!;
  const rounds = Object.values(byContender).find(isMeasured)?.rounds.length ?? 0;
  return [
    `## A fresh process's first calls (${rounds} fresh process${rounds === 1 ? '' : 'es'} each)`,
    '',
    `| Contender | CPU until ready | ${checkpoints.map((n) => `CPU per call, first ${count(n)}`).join(' | ')} | Warm (throughput suite) |`,
    `| --- | ---: | ${checkpoints.map(() => '---:').join(' | ')} | ---: |`,
    ...HTTP_CONTENDERS.filter(({ id }) => id in byContender).map(({ id, label }) => {
      const f = byContender[id];
      if (!isMeasured(f)) return unavailableRow(label, f, checkpoints.length + 2);
      const warm = figures(throughput?.echo[id])?.cpuPerRequestUs;
      return `| ${label} | ${millis(f.startupCpuMs)} | ${f.perCallUs.map(micros).join(' | ')} | ${micros(warm)} |`;
    }),
    '',
    'CPU until ready: the process\'s CPU time when it said it was ready to serve (loading its code, building its server). '
      + 'Then the echo call on one connection, one at a time, as a single client sends it; each figure is the CPU spent from ready '
      + 'to that many calls, over the calls (the session\'s opening and the one probe call included).',
  ];
}

function failures(f: RateFigures): string {
  return f.failed ? ` (${f.failed} failed)` : '';
}

function memoryTable({ memory = {} }: BenchResults): string[] {
  const counts = Object.values(memory).find(isMeasured)?.bySessions.map((f) => f.sessions) ?? [];
  return [
    '## Memory per idle session (after a full collection, over the process baseline)',
    '',
    `| Contender | ${counts.map((n) => `heap at ${count(n)}`).join(' | ')} | ${counts.map((n) => `RSS at ${count(n)}`).join(' | ')} |`,
    `| --- |${' ---: |'.repeat(counts.length * 2)}`,
    ...HTTP_CONTENDERS.filter(({ id }) => id in memory).map(({ id, label }) => {
      const m = memory[id];
      if (!isMeasured(m)) return unavailableRow(label, m, counts.length * 2);
      return `| ${label} | ${m.bySessions.map((f) => bytes(f.heapPerSession)).join(' | ')} | ${m.bySessions.map((f) => bytes(f.rssPerSession)).join(' | ')} |`;
    }),
    '',
    'The stateless contenders keep nothing between requests.',
  ];
}

const SCALE_TITLES: Readonly<Record<ScaleOp, string>> = {
  'tools/call': 'tools/call of the last tool, by tools registered',
  'tools/list': 'one page of tools/list, by tools registered',
  'resources/read': 'resources/read of the last template, by templates registered',
};

function scaleTables({ scale }: BenchResults): string[] {
  const { sizes, pageSize, ops } = scale!;
  const smallest = sizes[0];
  const largest = sizes[sizes.length - 1];
  const lines = [
    `## Registry size (10 connections${scale!.pinned ? '; the generator on one core, each server on the other' : ''}; requests/s, server CPU per call, and the cost of the largest registry relative to the smallest)`,
    '',
    `phantom pages its lists ${pageSize} to a page here, so every page holds ${pageSize} tools; the SDK's one page is the whole list. `
      + 'The cost is the server CPU per call with the largest registry over that with the smallest (the inverse of their rates where there is no CPU figure).',
  ];
  for (const op of ['tools/call', 'tools/list', 'resources/read'] as const) {
    lines.push('', `### ${SCALE_TITLES[op]}`, '',
      `| Contender | ${sizes.map(count).join(' | ')} | CPU at ${count(smallest)} | CPU at ${count(largest)} | cost ${count(largest)} / ${count(smallest)} |`,
      `| --- |${' ---: |'.repeat(sizes.length + 3)}`);
    for (const id of ['phantom-session', 'phantom-stateless', 'sdk-stateful', 'sdk-stateless'] as ScaleContenderId[]) {
      const label = HTTP_CONTENDERS.find((c) => c.id === id)!.label;
      const m = ops[op]?.[id];
      if (!isMeasured(m)) {
        lines.push(unavailableRow(label, m, sizes.length + 3));
        continue;
      }
      const cells = sizes.map((n) => rate(m.bySize[n]?.rps));
      const [small, large] = [m.bySize[smallest], m.bySize[largest]];
      lines.push(`| ${label} | ${cells.join(' | ')} | ${micros(small?.cpuPerRequestUs)} | ${micros(large?.cpuPerRequestUs)} | ${times(costRatio(small, large))} |`);
    }
  }
  return lines;
}

function startupTable({ startup }: BenchResults): string[] {
  const { tools, phantom, sdk } = startup!;
  return [
    `## Start-up with ${count(tools)} tools (each with its own argument class or schema; fresh process per round)`,
    '',
    '| Contender | Declare | Build the server | Total |',
    '| --- | ---: | ---: | ---: |',
    `| phantom (decorators; scan and compile) | ${millis(phantom.declareMs)} | ${millis(phantom.startMs)} | ${millis(phantom.declareMs + phantom.startMs)} |`,
    `| SDK (\`registerTool\` with zod shapes) | – | ${millis(sdk.startMs)} | ${millis(sdk.startMs)} |`,
    '',
    'The SDK converts its zod shapes to JSON Schema when `tools/list` is answered, on every call; phantom compiles them at start-up.',
  ];
}

function stdioTable({ stdio = {} }: BenchResults): string[] {
  const bare = stdio['bare-stdio'];
  const sdk = stdio['sdk-stdio'];
  const rtps = (m: Measured<{ rtps: number }> | undefined) => (isMeasured(m) ? m.rtps : undefined);
  const shared = Object.values(stdio).some((m) => isMeasured(m) && m.sharedCore);
  return [
    `## stdio round trips (one request at a time over pipes${shared ? '; the bench and the server share one CPU' : ''})`,
    '',
    '| Contender | Round trips/s | vs bare | vs SDK |',
    '| --- | ---: | ---: | ---: |',
    ...STDIO_CONTENDERS.map(({ id, label }) => {
      const m = stdio[id];
      if (!isMeasured(m)) return unavailableRow(label, m, 3);
      return `| ${label} | ${rate(m.rtps)} | ${times(ratio(m.rtps, rtps(bare)))} | ${times(ratio(m.rtps, rtps(sdk)))} |`;
    }),
  ];
}

function clusterTables({ cluster, connections }: BenchResults): string[] {
  if (!isMeasured(cluster)) {
    return ['## Scale-out behind a round-robin proxy', '', `Not measured: ${firstLine(cluster!.unavailable)}`];
  }
  const { setups } = cluster;
  const one = setups['one-node-memory'];
  const baseline = isMeasured(one) ? one : undefined;
  const rounds = Object.values(setups).find(isMeasured)?.echo.rounds.length ?? 0;
  return [
    `## Scale-out behind a round-robin proxy (${connections} connections for tools/call, ${rounds} rounds)`,
    '',
    `Every setup is behind the same proxy, a Node process of its own that forwards each request to the next node; nothing is pinned, so the nodes, Redis, the proxy and the load generator share the cores. `
      + 'The rate measures them all; the CPU per call of each process is read apart, and the serving side (the nodes and Redis) is what the target compares. '
      + (!cluster.redisCpuCounted ? 'Redis\'s CPU is not counted: `REDIS_URL` names a server not found on this machine.'
        : cluster.redis === 'REDIS_URL' ? 'Redis is the `REDIS_URL` one, found on this machine: its CPU includes whatever else used it meanwhile.' : 'Redis is the bench\'s own.'),
    '',
    '### tools/call of the echo tool',
    '',
    '| Setup | Requests/s | p50 | p99 | vs one node | CPU per call: nodes | Redis | proxy | generator | Serving side (nodes + Redis): calls per CPU second | vs one node |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...CLUSTER_SETUPS.map(({ id, label, redis }) => {
      const f = setups[id];
      if (!isMeasured(f)) return unavailableRow(label, f, 10);
      const { echo } = f;
      const failed = echo.failed ? ` (${echo.failed} failed)` : '';
      // A setup on Redis without Redis's CPU has no serving-side figure that could be compared.
      const perCpuSecond = (e: typeof echo | undefined, onRedis: boolean) => (e?.cpuPerRequestUs === undefined || (onRedis && e.redisCpuPerRequestUs === undefined)
        ? undefined : 1e6 / (e.cpuPerRequestUs + (e.redisCpuPerRequestUs ?? 0)));
      const serving = perCpuSecond(echo, redis);
      return `| ${label} | ${rate(echo.rps)}${failed} | ${millis(echo.p50)} | ${millis(echo.p99)} | ${times(ratio(echo.rps, baseline?.echo.rps))} `
        + `| ${micros(echo.cpuPerRequestUs)} | ${micros(echo.redisCpuPerRequestUs)} | ${micros(echo.proxyCpuPerRequestUs)} | ${micros(echo.generatorCpuPerRequestUs)} `
        + `| ${rate(serving)} | ${times(ratio(serving, perCpuSecond(baseline?.echo, false)))} |`;
    }),
    '',
    '### An elicitation round trip (one call at a time: the tool elicits, the client answers with a request of its own)',
    '',
    '| Setup | Round trips | p50 | p99 | p50 vs one node | The answer landed on |',
    '| --- | ---: | ---: | ---: | ---: | --- |',
    ...CLUSTER_SETUPS.map(({ id, label, nodes }) => {
      const f = setups[id];
      if (!isMeasured(f)) return unavailableRow(label, f, 5);
      const { elicitation: e } = f;
      const failed = e.failed ? ` (${e.failed} failed)` : '';
      const landed = nodes === 1 ? 'the asking node (the only one)'
        : e.crossNode === e.roundTrips ? 'the other node, every time' : `**the other node in ${whole(e.crossNode)} of ${whole(e.roundTrips)}**`;
      return `| ${label} | ${whole(e.roundTrips)}${failed} | ${millis(e.p50)} | ${millis(e.p99)} | ${signedMillis(difference(e.p50, baseline?.elicitation.p50))} | ${landed} |`;
    }),
    '',
    'The proxy is in front of every setup and costs more than a production balancer would (its CPU per call is in the first table): the single',
    'node here serves far fewer calls than in the throughput suite, which has no proxy. Compare the setups with each other, not with that suite.',
  ];
}

/** A count with grouped thousands: 5,562. */
function whole(value: number): string {
  return value.toLocaleString('en-US');
}

function difference(a: number | undefined, b: number | undefined): number | null {
  return a === undefined || b === undefined ? null : a - b;
}

/** A difference in milliseconds: `+0.8 ms`, `-0.1 ms`. */
function signedMillis(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(1)} ms`;
}

function figures(value: Measured<RateFigures> | undefined): RateFigures | undefined {
  return isMeasured(value) ? value : undefined;
}

function unavailableRow(label: string, value: { unavailable: string } | object | undefined, cells: number): string {
  const why = value && 'unavailable' in value ? `unavailable: ${firstLine(String(value.unavailable)).replaceAll('|', '\\|')}` : 'not measured';
  return `| ${label} | ${why} |${' |'.repeat(cells - 1)}`;
}
