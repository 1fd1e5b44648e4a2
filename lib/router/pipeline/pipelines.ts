import type { Diagnostics } from '../../core/diagnostics';
import type { PipelineMembersRecord } from '../../metadata/pipeline-options';
import type { OperationKind } from './execution-context';
import { MethodPipeline, TargetPipeline, type TargetSteps } from './operation-pipeline';
import type { PipelineMembers } from './pipeline-members';

/**
 * The compiled pipelines of one server: one per target (made the first time it is called, then
 * reused) and one per method without a target. `server.use` changes every pipeline, so it drops
 * them all, and each is compiled again on its next call. Keyed by definition, weakly: a removed
 * tool takes its pipeline with it.
 */
export class Pipelines {
  private targets = new WeakMap<object, TargetPipeline>();
  private readonly methods = new Map<string, MethodPipeline>();

  constructor(private readonly members: PipelineMembers, private readonly diagnostics: Diagnostics) {
    members.onChange(() => {
      this.targets = new WeakMap();
      this.methods.clear();
    });
  }

  /** The pipeline of `definition`, its steps compiled by `compile` (a function made once, not per call). */
  target<D extends { readonly pipeline: PipelineMembersRecord }>(definition: D, compile: (definition: D) => TargetSteps): TargetPipeline {
    let pipeline = this.targets.get(definition);
    if (!pipeline) {
      pipeline = new TargetPipeline(compile(definition), this.members.guardsFor(definition.pipeline), this.members.interceptorsFor(definition.pipeline), this.diagnostics);
      this.targets.set(definition, pipeline);
    }
    return pipeline;
  }

  /** The pipeline of a method without a target: the server's members only. */
  method(kind: OperationKind, method: string): MethodPipeline {
    let pipeline = this.methods.get(method);
    if (!pipeline) {
      pipeline = new MethodPipeline(kind, method, this.members.guardsFor(), this.members.interceptorsFor());
      this.methods.set(method, pipeline);
    }
    return pipeline;
  }
}
