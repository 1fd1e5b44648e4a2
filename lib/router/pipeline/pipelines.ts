import type { Diagnostics } from '../../core/diagnostics';
import { isGuardRef, isInterceptorRef, type PipelineMembersRecord } from '../../metadata/pipeline-options';
import { ScopeGuard } from './built-ins/scope.guard';
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

  /**
   * The pipeline of `definition`, its steps compiled by `compile` (a function made once, not per
   * call). The scopes it declares are checked first, before the server's guards and its own: a
   * caller who may not use the target learns it before a rate limit counts the call, and no guard
   * of the user's runs for it.
   */
  target<D extends { readonly pipeline: PipelineMembersRecord; readonly scopes?: readonly string[] }>(definition: D, compile: (definition: D) => TargetSteps): TargetPipeline {
    let pipeline = this.targets.get(definition);
    if (!pipeline) {
      const scopes = definition.scopes ?? [];
      const guards = [...(scopes.length > 0 ? [new ScopeGuard(...scopes)] : []), ...this.members.guardsFor(definition.pipeline)];
      pipeline = new TargetPipeline(compile(definition), guards, this.members.interceptorsFor(definition.pipeline), this.diagnostics);
      this.targets.set(definition, pipeline);
    }
    return pipeline;
  }

  /**
   * The pipeline of an extension's method: the scopes it declares first (as a target's), then the
   * server's guards and its own (`use`), then the server's interceptors and its own.
   */
  extension(method: string, own: { readonly use?: readonly unknown[]; readonly scopes?: readonly string[] }): MethodPipeline {
    let pipeline = this.methods.get(method);
    if (!pipeline) {
      const use = own.use ?? [];
      const record: PipelineMembersRecord = { guards: use.filter(isGuardRef), interceptors: use.filter(isInterceptorRef) };
      const scopes = own.scopes ?? [];
      const guards = [...(scopes.length > 0 ? [new ScopeGuard(...scopes)] : []), ...this.members.guardsFor(record)];
      pipeline = new MethodPipeline('extension', method, guards, this.members.interceptorsFor(record));
      this.methods.set(method, pipeline);
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
