import { everyEntrant, interleave, type Entrant } from '../harness/rounds';
import { ServerProcess } from '../harness/server-process';
import { median } from '../harness/stats';
import { millis } from '../report/format';
import type { BenchResults, StartupFigures } from '../report/results';
import type { SuiteContext } from './suite-context';

type StartupResults = NonNullable<BenchResults['startup']>;

/** Start-up with 1,000 tools, each with its own argument class, in a fresh process per round. */
export async function startupSuite({ plan, progress }: SuiteContext): Promise<StartupResults> {
  const { tools, rounds } = plan.startup;
  const probe = (framework: 'phantom' | 'sdk'): Entrant<StartupFigures> => ({
    label: framework === 'phantom' ? 'phantom' : 'SDK',
    run: async () => {
      const server = await ServerProcess.start('startup.probe', ['--framework', framework, '--tools', String(tools)]);
      await server.stop();
      return server.detail as StartupFigures;
    },
  });
  const show = (f: StartupFigures) => `declare ${millis(f.declareMs)}, start ${millis(f.startMs)}`;
  const [phantom, sdk] = await interleave(`start-up (${tools} tools)`, [probe('phantom'), probe('sdk')], { rounds, warmup: false }, progress, everyEntrant(show));
  const medians = (samples: StartupFigures[]): StartupFigures => ({
    declareMs: median(samples.map((s) => s.declareMs)),
    startMs: median(samples.map((s) => s.startMs)),
  });
  return { tools, phantom: medians(phantom), sdk: medians(sdk) };
}
