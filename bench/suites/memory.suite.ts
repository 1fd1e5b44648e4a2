import { HTTP_CONTENDERS, launch, type HttpContender } from '../contenders';
import { CALLS } from '../harness/dialects';
import { inParallel } from '../harness/http-client';
import { everyEntrant, interleave, type Entrant } from '../harness/rounds';
import { median } from '../harness/stats';
import { bytes, count, firstLine } from '../report/format';
import { isMeasured, type BenchResults, type Measured, type SessionMemory } from '../report/results';
import type { SuiteContext } from './suite-context';

/**
 * The contenders that hold sessions (their dialect opens them), without a bearer token: the
 * stateless ones keep nothing between requests, and a token changes nothing a session holds.
 */
export function sessionContenders(): readonly HttpContender[] {
  return HTTP_CONTENDERS.filter((c) => c.dialect.openIdleSession !== undefined && !c.bearer && c.noIdleSessions === undefined);
}

/** Sessions opened before the baseline, so that what the first session creates lazily is not counted. */
const WARM_SESSIONS = 20;
const OPENING_WIDTH = 50;

type MemoryResults = NonNullable<BenchResults['memory']>;

/**
 * Memory per idle session: a fresh server process per round opens sessions (initialize and
 * notifications/initialized, 50 at a time) and reports its heap and RSS after a full collection,
 * at each count in the plan. Per session = growth over the baseline / sessions opened.
 */
export async function memorySuite({ plan, progress, profiling }: SuiteContext): Promise<MemoryResults> {
  const contenders = sessionContenders();
  const entrants: Entrant<Measured<SessionMemory[]>>[] = contenders.map((contender) => ({
    label: contender.label,
    run: async ({ onTick }) => {
      const started = await launch(contender, { tools: 1, templates: 0 }, [CALLS.echo], profiling);
      if ('unavailable' in started) return started;
      const { server } = started;
      const openSession = (url: string) => contender.dialect.openIdleSession!(url);
      try {
        const url = server.url!;
        await inParallel(WARM_SESSIONS, OPENING_WIDTH, () => openSession(url));
        const base = await server.memory();
        const figures: SessionMemory[] = [];
        let opened = 0;
        for (const sessions of plan.memory.sessions) {
          await inParallel(sessions - opened, OPENING_WIDTH, () => openSession(url));
          opened = sessions;
          onTick(sessions);
          const now = await server.memory();
          figures.push({ sessions, heapPerSession: (now.heapUsed - base.heapUsed) / sessions, rssPerSession: (now.rss - base.rss) / sessions });
        }
        return figures;
      } finally {
        await server.stop();
      }
    },
  }));
  const samples = await interleave('memory', entrants, { rounds: plan.memory.rounds, warmup: false }, progress, everyEntrant(show));
  const out: MemoryResults = {};
  contenders.forEach(({ id }, i) => {
    const failed = samples[i].find((round) => !isMeasured(round));
    if (failed) {
      out[id] = failed as { unavailable: string };
      return;
    }
    const rounds = samples[i] as SessionMemory[][];
    out[id] = {
      bySessions: plan.memory.sessions.map((sessions, k) => ({
        sessions,
        heapPerSession: median(rounds.map((round) => round[k].heapPerSession)),
        rssPerSession: median(rounds.map((round) => round[k].rssPerSession)),
      })),
    };
  });
  return out;
}

function show(sample: Measured<SessionMemory[]>): string {
  if (!isMeasured(sample)) return `unavailable: ${firstLine(sample.unavailable)}`;
  return sample.map((f) => `${bytes(f.heapPerSession)} heap/session at ${count(f.sessions)}`).join(', ');
}
