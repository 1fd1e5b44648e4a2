import { CoreSplit } from '../harness/affinity';
import { httpContender, launch, type HttpContender, type Running, type Served } from '../contenders';
import { CALLS, type Call } from '../harness/dialects';
import type { LoadSample } from '../harness/load';
import { interleave, type Entrant, type Finished } from '../harness/rounds';
import { costRatio } from '../harness/stats';
import { count, firstLine, rate, times } from '../report/format';
import type { BenchResults, Measured, RateFigures, ScaleContenderId, ScaleOp } from '../report/results';
import { rateFigures, sizedEntrant } from './load-entrant';
import type { SuiteContext } from './suite-context';

/**
 * Connections in this suite. At 50, the slowest contender (the SDK rebuilding 10,000 tools for
 * every request, 0.2 to 0.5 s per answer) needs 10 to 25 s to answer one request per connection;
 * 10 keeps every round of every contender to a few seconds. All contenders get the same.
 */
export const SCALE_CONNECTIONS = 10;

/**
 * phantom's page size here: every page of `tools/list` then holds 10 tools at every registry size,
 * so the measure isolates the registry's size from the page's. The SDK does not page: its one
 * page is the whole list.
 */
export const SCALE_PAGE_SIZE = 10;

const CONTENDERS: readonly ScaleContenderId[] = ['phantom-session', 'phantom-stateless', 'sdk-stateful', 'sdk-stateless'];

/** Each measure, and what the server must register for it. */
const MEASURES: readonly { readonly op: ScaleOp; readonly call: Call; readonly registers: 'tools' | 'templates' }[] = [
  { op: 'tools/call', call: CALLS.echo, registers: 'tools' },
  { op: 'tools/list', call: CALLS.list, registers: 'tools' },
  { op: 'resources/read', call: CALLS.read, registers: 'templates' },
];

type ScaleResults = NonNullable<BenchResults['scale']>;
type Cell = { readonly contender: HttpContender; readonly op: ScaleOp; readonly size: number };

/**
 * The cost of a call against the size of the registry: `tools/call` and one page of `tools/list`
 * with 10, 1,000 and 10,000 tools; `resources/read` of the last template with as many templates.
 * The cost is the server's CPU time per call, the generator on one core and the servers on the
 * other (`CoreSplit`, where taskset exists), as in the throughput suite.
 */
export async function scaleSuite({ plan, progress, profiling }: SuiteContext): Promise<ScaleResults> {
  const { sizes } = plan.scale;
  const ops: ScaleResults['ops'] = {};
  const split = CoreSplit.hold();
  try {
    for (const registers of ['tools', 'templates'] as const) await scaleRegistry(registers, sizes, ops, split, { plan, progress, profiling });
  } finally {
    split.release();
  }
  return { pinned: split.pinned, sizes, pageSize: SCALE_PAGE_SIZE, ops };
}

/** Every contender at every size with the calls that need `registers`, in interleaved rounds. */
async function scaleRegistry(registers: 'tools' | 'templates', sizes: readonly number[], ops: ScaleResults['ops'], split: CoreSplit, { plan, progress, profiling }: SuiteContext): Promise<void> {
  const measures = MEASURES.filter((m) => m.registers === registers);
  const running: Running[] = [];
  const entrants: Entrant<LoadSample>[] = [];
  const cells: Cell[] = [];
  try {
    for (const id of CONTENDERS) {
      const contender = httpContender(id);
      for (const size of sizes) {
        progress.status(`scale: starting ${contender.label} with ${count(size)} ${registers}…`);
        const served: Served = registers === 'tools'
          ? { tools: size, templates: 0, pageSize: SCALE_PAGE_SIZE }
          : { tools: 1, templates: size, pageSize: SCALE_PAGE_SIZE };
        const started = await launch(contender, served, measures.map((m) => m.call), profiling);
        if ('unavailable' in started) {
          for (const { op } of measures) unavailable(ops, op, id, started.unavailable);
          progress.line(`scale: ${contender.label} with ${count(size)} ${registers} is unavailable: ${firstLine(started.unavailable)}`);
          continue;
        }
        split.server(started.server.pid);
        running.push(started);
        for (const { op, call } of measures) {
          entrants.push(sizedEntrant(`${id} ${op} ${count(size)}`, started, call, plan.scale, SCALE_CONNECTIONS));
          cells.push({ contender, op, size });
        }
      }
    }
    const samples = await interleave(`scale (${registers})`, entrants, { rounds: plan.scale.rounds, warmup: true }, progress, costGrowth(cells, sizes));
    cells.forEach((cell, i) => record(ops, cell, rateFigures(samples[i])));
  } finally {
    await Promise.all(running.map((r) => r.server.stop()));
  }
}

function record(ops: ScaleResults['ops'], { contender, op, size }: Cell, figures: RateFigures): void {
  const byContender = (ops[op] ??= {});
  const current = byContender[contender.id as ScaleContenderId];
  const bySize = current && !('unavailable' in current) ? { ...current.bySize } : {};
  bySize[size] = figures;
  byContender[contender.id as ScaleContenderId] = { bySize };
}

function unavailable(ops: ScaleResults['ops'], op: ScaleOp, id: ScaleContenderId, reason: string): void {
  (ops[op] ??= {})[id] = { unavailable: reason } satisfies Measured<never>;
}

/** The round line: per contender and call, the largest registry's rate and how much dearer a call is than with the smallest. */
function costGrowth(cells: readonly Cell[], sizes: readonly number[]): (finished: readonly Finished<LoadSample>[]) => string {
  const smallest = sizes[0];
  const largest = sizes[sizes.length - 1];
  return (finished) => {
    const sampleOf = (id: string, op: ScaleOp, size: number) => {
      const at = cells.findIndex((c) => c.contender.id === id && c.op === op && c.size === size);
      return at === -1 ? undefined : finished[at]?.sample;
    };
    const shown = new Set<string>();
    const parts: string[] = [];
    for (const { contender, op } of cells) {
      const key = `${contender.id} ${op}`;
      if (shown.has(key)) continue;
      shown.add(key);
      const large = sampleOf(contender.id, op, largest);
      parts.push(`${key} ${count(largest)}: ${rate(large?.rps)}/s (cost ${times(costRatio(sampleOf(contender.id, op, smallest), large))})`);
    }
    return parts.join(' · ');
  };
}
