import { PhantomError } from '../../core/errors';
import type { Constructor } from '../../metadata/metadata-store';
import { describeMemberRef, isGuardRef, isInterceptorRef, type PipelineMemberRef, type PipelineMembersRecord } from '../../metadata/pipeline-options';
import { ScopeGuard } from './built-ins/scope.guard';
import type { CanActivate } from './guard';
import type { Interceptor } from './interceptor';

/** What `server.use` takes: a guard or an interceptor, as a class (resolved from the server's container) or an instance. */
export type PipelineMember = PipelineMemberRef<CanActivate> | PipelineMemberRef<Interceptor>;

/**
 * The server's own guards and interceptors (`server.use`), and the one instance of every member
 * class: resolved from the server's container the first time a pipeline needs it, then shared by
 * every target that names it (a rate limit's buckets are the server's, not one tool's).
 */
export class PipelineMembers {
  private readonly guards: PipelineMemberRef<CanActivate>[] = [];
  private readonly interceptors: PipelineMemberRef<Interceptor>[] = [];
  private readonly instances = new Map<Function, object>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly resolve: (cls: Constructor) => object) {}

  /**
   * Adds members for every operation, after those added before. A member that is neither a guard
   * nor an interceptor is refused at once; one that is both (it has `canActivate` and `intercept`)
   * takes both parts, as one instance.
   */
  use(members: readonly unknown[]): void {
    const refused = members.filter((member) => !isGuardRef(member) && !isInterceptorRef(member));
    if (refused.length > 0) {
      throw new PhantomError('pipeline_member_invalid', `server.use takes guards (with canActivate) and interceptors (with intercept), as classes or instances; got ${refused.map(describeMemberRef).join(', ')}`);
    }
    for (const member of members) {
      if (isGuardRef(member)) this.guards.push(member as PipelineMemberRef<CanActivate>);
      if (isInterceptorRef(member)) this.interceptors.push(member as PipelineMemberRef<Interceptor>);
    }
    for (const listener of this.listeners) listener();
  }

  /** The scopes of the server's `ScopeGuard`s: every operation needs them. */
  scopes(): string[] {
    return this.guards.flatMap((guard) => (guard instanceof ScopeGuard ? guard.scopes : []));
  }

  /** Called after each `use`, so compiled pipelines are rebuilt with the new members. */
  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** The server's guards, then those of `record` (class, then method), as instances. */
  guardsFor(record?: PipelineMembersRecord): CanActivate[] {
    return this.instancesOf<CanActivate>([...this.guards, ...(record?.guards ?? [])]);
  }

  /** The server's interceptors, then those of `record`, as instances; the first is the outermost. */
  interceptorsFor(record?: PipelineMembersRecord): Interceptor[] {
    return this.instancesOf<Interceptor>([...this.interceptors, ...(record?.interceptors ?? [])]);
  }

  private instancesOf<T>(refs: readonly unknown[]): T[] {
    return refs.map((ref) => (typeof ref === 'function' ? this.instanceOf(ref as Constructor) : ref) as T);
  }

  private instanceOf(cls: Constructor): object {
    let instance = this.instances.get(cls);
    if (!instance) this.instances.set(cls, (instance = this.resolve(cls)));
    return instance;
  }
}
