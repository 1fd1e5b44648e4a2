import { CLUSTER_SETUPS, HTTP_CONTENDERS, STDIO_CONTENDERS } from '../contenders';
import { ratio } from '../harness/stats';
import { bytes, count, firstLine, millis, rate, times } from './format';
import { isMeasured, type BenchResults, type Measured, type RateFigures, type ScaleContenderId, type ScaleOp } from './results';

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
    '## Targets (issues 5, 10 and 11)',
    '',
    '| Target | Ratio | Goal | Holds | Figures |',
    '| --- | ---: | :---: | :---: | --- |',
    ...targets.map((t) => `| ${t.name} | ${t.unit === 'ms' ? signedMillis(t.ratio) : times(t.ratio)} | ${t.goal}${t.unit ? ` ${t.unit}` : ''} | ${t.holds ? 'yes' : '**no**'} | ${t.detail} |`),
  ];
}

function throughputTable({ throughput = {}, connections }: BenchResults): string[] {
  const bare = figures(throughput.bare);
  const sdkBest = Math.max(figures(throughput['sdk-stateless'])?.rps ?? 0, figures(throughput['sdk-stateful'])?.rps ?? 0) || undefined;
  const rounds = Object.values(throughput).find(isMeasured)?.rounds.length ?? 0;
  return [
    `## tools/call over Streamable HTTP (${connections} connections, ${rounds} rounds)`,
    '',
    '| Contender | Requests/s | p50 | p99 | vs bare | vs SDK best |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...HTTP_CONTENDERS.map(({ id, label }) => {
      const f = throughput[id];
      if (!isMeasured(f)) return unavailableRow(label, f, 5);
      const failed = f.failed ? ` (${f.failed} failed)` : '';
      return `| ${label} | ${rate(f.rps)}${failed} | ${millis(f.p50)} | ${millis(f.p99)} | ${times(ratio(f.rps, bare?.rps))} | ${times(ratio(f.rps, sdkBest))} |`;
    }),
  ];
}

function memoryTable({ memory = {} }: BenchResults): string[] {
  const counts = Object.values(memory).find(isMeasured)?.bySessions.map((f) => f.sessions) ?? [];
  return [
    '## Memory per idle session (after a full collection, over the process baseline)',
    '',
    `| Contender | ${counts.map((n) => `heap at ${count(n)}`).join(' | ')} | ${counts.map((n) => `RSS at ${count(n)}`).join(' | ')} |`,
    `| --- |${' ---: |'.repeat(counts.length * 2)}`,
    ...(['phantom-session', 'sdk-stateful'] as const).map((id) => {
      const label = HTTP_CONTENDERS.find((c) => c.id === id)!.label;
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
    '## Registry size (10 connections; requests/s, and the cost of the largest registry relative to the smallest)',
    '',
    `phantom pages its lists ${pageSize} to a page here, so every page holds ${pageSize} tools; the SDK's one page is the whole list.`,
  ];
  for (const op of ['tools/call', 'tools/list', 'resources/read'] as const) {
    lines.push('', `### ${SCALE_TITLES[op]}`, '',
      `| Contender | ${sizes.map(count).join(' | ')} | cost ${count(largest)} / ${count(smallest)} |`,
      `| --- |${' ---: |'.repeat(sizes.length + 1)}`);
    for (const id of ['phantom-session', 'phantom-stateless', 'sdk-stateful', 'sdk-stateless'] as ScaleContenderId[]) {
      const label = HTTP_CONTENDERS.find((c) => c.id === id)!.label;
      const m = ops[op]?.[id];
      if (!isMeasured(m)) {
        lines.push(unavailableRow(label, m, sizes.length + 1));
        continue;
      }
      const cells = sizes.map((n) => rate(m.bySize[n]?.rps));
      lines.push(`| ${label} | ${cells.join(' | ')} | ${times(ratio(m.bySize[smallest]?.rps, m.bySize[largest]?.rps))} |`);
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
  const us = (value: number | undefined) => (value === undefined ? '–' : `${Math.round(value)} us`);
  return [
    `## Scale-out behind a round-robin proxy (${connections} connections for tools/call, ${rounds} rounds)`,
    '',
    `Every setup is behind the same proxy, a Node process of its own that forwards each request to the next node; nothing is pinned, so the nodes, Redis${cluster.redis === 'REDIS_URL' ? ' (`REDIS_URL`: not on this machine\'s count)' : ''}, the proxy and the load generator share the cores.`,
    '',
    '### tools/call of the echo tool',
    '',
    '| Setup | Requests/s | p50 | p99 | vs one node | CPU per call: nodes | Redis | proxy |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...CLUSTER_SETUPS.map(({ id, label }) => {
      const f = setups[id];
      if (!isMeasured(f)) return unavailableRow(label, f, 7);
      const { echo } = f;
      const failed = echo.failed ? ` (${echo.failed} failed)` : '';
      return `| ${label} | ${rate(echo.rps)}${failed} | ${millis(echo.p50)} | ${millis(echo.p99)} | ${times(ratio(echo.rps, baseline?.echo.rps))} `
        + `| ${us(echo.cpuPerRequestUs)} | ${us(echo.redisCpuPerRequestUs)} | ${us(echo.proxyCpuPerRequestUs)} |`;
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
