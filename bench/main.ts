import { Progress } from './harness/progress';
import { QUICK } from './plan';
import { throughputSuite } from './suites/throughput.suite';

async function main(): Promise<void> {
  const progress = new Progress();
  const result = await throughputSuite({ plan: QUICK, progress, profiling: { ids: new Set(), dir: '/tmp' } });
  console.log(JSON.stringify(result, (k, v) => (k === 'rounds' ? undefined : v), 2));
}
void main();
