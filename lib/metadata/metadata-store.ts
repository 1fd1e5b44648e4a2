import 'reflect-metadata';
import { DESIGN_KEYS, METADATA_KEYS } from './metadata-keys';

/** A class constructor, as the framework sees the user's classes. */
export type Constructor<T = unknown> = new (...args: any[]) => T;

/** One decorated member as recorded by a decorator: the options exactly as the user wrote them. */
export interface MemberRecord<O> {
  readonly propertyKey: string;
  readonly options: O;
}

/** A decorator applied where it does not belong (a property instead of a method). */
export interface MisplacedRecord {
  readonly decorator: string;
  readonly propertyKey: string;
  /** Where it belongs, for the message (default: `a method`). */
  readonly belongsOn?: string;
}

type ListKey = typeof METADATA_KEYS.tools | typeof METADATA_KEYS.resources | typeof METADATA_KEYS.prompts;

/**
 * Appends a frozen record to the class's own list under `key`. Lists are copied, never mutated,
 * so a subclass decorating more members does not change its parent's list.
 */
export function appendMember<O>(key: ListKey, target: object, record: MemberRecord<O>): void {
  const own: readonly MemberRecord<O>[] = Reflect.getOwnMetadata(key, target) ?? [];
  Reflect.defineMetadata(key, Object.freeze([...own, Object.freeze(record)]), target);
}

/** The records declared on `ctor` and its ancestors, the nearest declaration of a member winning. */
export function readMembers<O>(key: ListKey, ctor: Constructor): MemberRecord<O>[] {
  const seen = new Set<string>();
  const out: MemberRecord<O>[] = [];
  for (let proto = ctor.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const own: readonly MemberRecord<O>[] = Reflect.getOwnMetadata(key, proto) ?? [];
    for (const record of own) {
      if (seen.has(record.propertyKey)) continue;
      seen.add(record.propertyKey);
      out.push(record);
    }
  }
  return out;
}

export function recordMisplaced(target: object, record: MisplacedRecord): void {
  const own: readonly MisplacedRecord[] = Reflect.getOwnMetadata(METADATA_KEYS.misplaced, target) ?? [];
  Reflect.defineMetadata(METADATA_KEYS.misplaced, Object.freeze([...own, Object.freeze(record)]), target);
}

export function readMisplaced(ctor: Constructor): MisplacedRecord[] {
  const out: MisplacedRecord[] = [];
  for (let proto = ctor.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    out.push(...((Reflect.getOwnMetadata(METADATA_KEYS.misplaced, proto) as MisplacedRecord[] | undefined) ?? []));
  }
  return out;
}

/** Per-property options from `@Field`, merged along the prototype chain (nearest wins). */
export function writeField<O extends object>(target: object, propertyKey: string, options: O): void {
  const own: Readonly<Record<string, O>> = Reflect.getOwnMetadata(METADATA_KEYS.fields, target) ?? {};
  Reflect.defineMetadata(METADATA_KEYS.fields, Object.freeze({ ...own, [propertyKey]: Object.freeze({ ...options }) }), target);
}

export function readFields<O extends object>(ctor: Function): Record<string, O> {
  const chain: Record<string, O>[] = [];
  for (let proto = ctor.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const own = Reflect.getOwnMetadata(METADATA_KEYS.fields, proto);
    if (own) chain.push(own);
  }
  return Object.assign({}, ...chain.reverse());
}

export function writeClassOptions<O extends object>(key: typeof METADATA_KEYS.elicit, ctor: Function, options: O): void {
  Reflect.defineMetadata(key, Object.freeze({ ...options }), ctor);
}

export function readClassOptions<O>(key: typeof METADATA_KEYS.elicit, ctor: Function): O | undefined {
  return Reflect.getOwnMetadata(key, ctor);
}

/** The parameter types TypeScript emitted for a method, or undefined when metadata is missing (see `hasParamTypes`). */
export function readParamTypes(proto: object, propertyKey: string): unknown[] | undefined {
  return Reflect.getMetadata(DESIGN_KEYS.paramTypes, proto, propertyKey);
}

/**
 * Whether TypeScript emitted parameter types for a method. `tsc` emits them for every decorated
 * method (`[]` for one without parameters), so `false` means the build dropped decorator metadata.
 */
export function hasParamTypes(proto: object, propertyKey: string): boolean {
  return Reflect.hasMetadata(DESIGN_KEYS.paramTypes, proto, propertyKey);
}

export function readPropertyType(proto: object, propertyKey: string): unknown {
  return Reflect.getMetadata(DESIGN_KEYS.type, proto, propertyKey);
}

type PipelineKey = typeof METADATA_KEYS.guards | typeof METADATA_KEYS.interceptors;

/**
 * Adds pipeline members (`@UseGuards`, `@UseInterceptors`) to a class (`propertyKey` undefined) or
 * one of its methods. Decorators apply bottom-up, so the members of a decorator written above come
 * first: the recorded list reads in the order written, top to bottom.
 */
export function prependPipelineMembers(key: PipelineKey, target: object, propertyKey: string | undefined, members: readonly unknown[]): void {
  const own: readonly unknown[] = (propertyKey === undefined ? Reflect.getOwnMetadata(key, target) : Reflect.getOwnMetadata(key, target, propertyKey)) ?? [];
  const list = Object.freeze([...members, ...own]);
  if (propertyKey === undefined) Reflect.defineMetadata(key, list, target);
  else Reflect.defineMetadata(key, list, target, propertyKey);
}

/** The pipeline members of a class: its own, else the nearest ancestor's. */
export function readClassPipelineMembers(key: PipelineKey, ctor: Constructor): readonly unknown[] {
  return Reflect.getMetadata(key, ctor) ?? [];
}

/** The pipeline members of one method: its nearest declaration's. */
export function readMethodPipelineMembers(key: PipelineKey, ctor: Constructor, propertyKey: string): readonly unknown[] {
  return Reflect.getMetadata(key, ctor.prototype, propertyKey) ?? [];
}

/**
 * Adds `@RequireScopes` scopes to a class (`propertyKey` undefined) or one of its methods, after
 * those recorded there before. A method's own list stays its own: a subclass adds to a copy.
 */
export function appendScopes(target: object, propertyKey: string | undefined, scopes: readonly string[]): void {
  const own: readonly string[] = (propertyKey === undefined ? Reflect.getOwnMetadata(METADATA_KEYS.scopes, target) : Reflect.getOwnMetadata(METADATA_KEYS.scopes, target, propertyKey)) ?? [];
  const list = Object.freeze([...own, ...scopes]);
  if (propertyKey === undefined) Reflect.defineMetadata(METADATA_KEYS.scopes, list, target);
  else Reflect.defineMetadata(METADATA_KEYS.scopes, list, target, propertyKey);
}

/** The `@RequireScopes` scopes of a class: its own, else the nearest ancestor's. */
export function readClassScopes(ctor: Constructor): readonly unknown[] {
  return Reflect.getMetadata(METADATA_KEYS.scopes, ctor) ?? [];
}

/** The `@RequireScopes` scopes of one method: its nearest declaration's. */
export function readMethodScopes(ctor: Constructor, propertyKey: string): readonly unknown[] {
  return Reflect.getMetadata(METADATA_KEYS.scopes, ctor.prototype, propertyKey) ?? [];
}

/**
 * Whether `value` is a class with `@Tool`, `@Resource` or `@Prompt` members, its own or inherited:
 * one a server can be built from (the CLI serves a module that exports such classes).
 */
export function isProviderClass(value: unknown): value is Constructor {
  if (typeof value !== 'function' || typeof value.prototype !== 'object') return false;
  const cls = value as Constructor;
  return [METADATA_KEYS.tools, METADATA_KEYS.resources, METADATA_KEYS.prompts].some((key) => readMembers(key, cls).length > 0);
}
