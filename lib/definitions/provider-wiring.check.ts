import type { Constructor } from '../metadata/metadata-store';
import { constructorParameterNames } from './parameter-names';
import { constructorPlan } from './tsyringe-metadata.adapter';

/** What the wiring check needs from the server's container. */
export interface WiringScope {
  /** The providers the container will build from their own constructors (registered or about to be). */
  readonly classes: readonly Constructor[];
  /** Whether the container, or one of its parents, has a registration for `token`. */
  readonly isRegistered: (token: unknown) => boolean;
}

/**
 * Types that tsyringe cannot build for a parameter: `design:paramtypes` names them for a primitive,
 * an array, a function or a date, and tsyringe would try `new String()` or fail on their arity.
 */
const BUILT_INS: ReadonlySet<unknown> = new Set([Function, String, Number, Boolean, Symbol, BigInt, Array, Promise, Date, RegExp, Error]);

/**
 * Checks, without building anything, that tsyringe can construct each class and, recursively,
 * every class it depends on that the container does not register: the mistakes that would
 * otherwise pass start-up and fail every call with an internal error. One line per problem,
 * naming the class (and the path to it) and the parameter.
 */
export function wiringProblems(scope: WiringScope): string[] {
  const walk = new WiringWalk(new Set(scope.classes), scope.isRegistered);
  for (const cls of scope.classes) walk.visit(cls, []);
  return walk.problems;
}

class WiringWalk {
  readonly problems: string[] = [];
  private readonly checked = new Set<Function>();
  /** The classes being checked, outermost first: a dependency on one of them closes a cycle. */
  private readonly building: Function[] = [];

  constructor(private readonly providers: ReadonlySet<Function>, private readonly isRegistered: (token: unknown) => boolean) {}

  /** `via`: the classes whose constructors lead here from a provider, for the label. */
  visit(cls: Function, via: readonly Function[]): void {
    if (this.checked.has(cls)) return;
    this.checked.add(cls);
    const label = [...via, cls].map((c) => c.name || '(anonymous class)').join(' -> ');
    const plan = constructorPlan(cls);
    if (plan.kind === 'not-injectable') this.problems.push(`${label}: ${notInjectable(plan.decorated)}`);
    if (plan.kind === 'no-metadata') {
      this.problems.push(`${label}: is @injectable() but its constructor parameter types were not emitted; `
        + 'compile with tsc and "emitDecoratorMetadata": true (tsx and esbuild drop them)');
    }
    if (plan.kind !== 'params') return;
    const names = constructorParameterNames(cls);
    this.building.push(cls);
    plan.params.forEach((param, index) => {
      const name = names[index];
      this.param(param, `${label}: constructor parameter ${index}${name ? ` (${name})` : ''}`, [...via, cls]);
    });
    this.building.pop();
  }

  /** One parameter: a type from `design:paramtypes`, or the descriptor `@inject` and friends record. */
  private param(param: unknown, where: string, via: readonly Function[]): void {
    if (!isDescriptor(param)) return this.token(param, where, via);
    if (param.transform !== undefined) this.token(param.transform, `${where}, its transform`, via);
    if (param.isOptional && !isClass(param.token)) return;
    this.token(param.token, where, via);
  }

  private token(token: unknown, where: string, via: readonly Function[]): void {
    if (isClass(token) && this.building.includes(token)) {
      const cycle = [...this.building.slice(this.building.indexOf(token)), token].map((c) => c.name).join(' -> ');
      this.problems.push(`${where}: the constructors depend on each other in a cycle (${cycle}), which tsyringe `
        + `never finishes building; break it with @inject(delay(() => ${token.name}))`);
      return;
    }
    // Another provider: built from its constructor too (its registration holds no instance yet), named on its own.
    if (this.providers.has(token as Function)) return this.visit(token as Function, []);
    if (isLazy(token) || this.isRegistered(token)) return;
    const problem = unresolvable(token, where);
    if (problem) this.problems.push(problem);
    else this.visit(token as Function, via);
  }
}

/** Why a token that nothing registers cannot be resolved; nothing for a class tsyringe may build. */
function unresolvable(token: unknown, where: string): string | undefined {
  if (token === undefined || token === null) {
    return `${where} has no runtime type (a circular import?); name it with @inject(delay(() => TheClass))`;
  }
  if (typeof token === 'string' || typeof token === 'symbol') {
    return `${where} asks for ${typeof token === 'string' ? `"${token}"` : token.toString()} (@inject), which is registered `
      + 'nowhere in the server\'s container or its parents; register it before the server is made';
  }
  if (token === Object) {
    return `${where} is typed as an interface, a union or any (its runtime type is Object, which tells tsyringe nothing); `
      + 'name the dependency with @inject(token) and register the token';
  }
  if (BUILT_INS.has(token)) {
    return `${where} is typed as ${(token as Function).name}, which tsyringe cannot build; `
      + 'give it @inject(token) with a registered token';
  }
  if (!isClass(token)) return `${where} has an injection token tsyringe cannot resolve: ${String(token)}`;
  return undefined;
}

function notInjectable(decorated: boolean): string {
  if (!decorated) {
    return 'has constructor parameters but no @injectable(), so tsyringe cannot tell what to pass; '
      + 'add @injectable() from tsyringe (and compile with "emitDecoratorMetadata": true)';
  }
  return 'has constructor parameters and decorator metadata, but the tsyringe phantom-mcp uses has no record of '
    + '@injectable() on it. If it is decorated with @injectable(), a second copy of tsyringe is the likely cause '
    + '(run `npm ls tsyringe`; tsyringe is a peer dependency, so your code and phantom-mcp must share one copy); '
    + 'otherwise add @injectable()';
}

interface TokenDescriptor {
  readonly token: unknown;
  readonly isOptional?: boolean;
  readonly transform?: unknown;
}

/** What `@inject`, `@injectAll` and their `WithTransform` forms record in a parameter's place. */
function isDescriptor(param: unknown): param is TokenDescriptor {
  return typeof param === 'object' && param !== null && 'token' in param;
}

function isClass(token: unknown): token is Function {
  return typeof token === 'function';
}

/** `delay(() => Class)`: resolved on first use, for cycles; what it wraps is not known yet. */
function isLazy(token: unknown): boolean {
  return typeof token === 'object' && token !== null && typeof (token as { createProxy?: unknown }).createProxy === 'function';
}
