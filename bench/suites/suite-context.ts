import type { Profiling } from '../contenders';
import type { Progress } from '../harness/progress';
import type { Plan } from '../plan';

export interface SuiteContext {
  readonly plan: Plan;
  readonly progress: Progress;
  readonly profiling: Profiling;
}
