import 'reflect-metadata';
import { DESIGN_KEYS, METADATA_KEYS } from './metadata-keys';
import { nearestRecord, ownRecord, writeRecord } from './record-store';

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

type ListKey = typeof METADATA_KEYS.tools | typeof METADATA_KEYS.resources | typeof METADATA_KEYS.prompts | typeof METADATA_KEYS.skills | typeof METADATA_KEYS.toolUi;

/**
 * Appends a frozen record to the class's own list under `key`. Lists are copied, never mutated,
 * so a subclass decorating more members does not change its parent's list.
 */
export function appendMember<O>(key: ListKey, target: object, record: MemberRecord<O>): void {
  const own = ownRecord<readonly MemberRecord<O>[]>(target, key) ?? [];
  writeRecord(target, key, Object.freeze([...own, Object.freeze(record)]));
}

/** The records declared on `ctor` and its ancestors, the nearest declaration of a member winning. */
export function readMembers<O>(key: ListKey, ctor: Constructor): MemberRecord<O>[] {
  const seen = new Set<string>();
  const out: MemberRecord<O>[] = [];
  for (let proto = ctor.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const own = ownRecord<readonly MemberRecord<O>[]>(proto, key) ?? [];
    for (const record of own) {
      if (seen.has(record.propertyKey)) continue;
      seen.add(record.propertyKey);
      out.push(record);
    }
  }
  return out;
}

export function recordMisplaced(target: object, record: MisplacedRecord): void {
  const own = ownRecord<readonly MisplacedRecord[]>(target, METADATA_KEYS.misplaced) ?? [];
  writeRecord(target, METADATA_KEYS.misplaced, Object.freeze([...own, Object.freeze(record)]));
}

export function readMisplaced(ctor: Constructor): MisplacedRecord[] {
  const out: MisplacedRecord[] = [];
  for (let proto = ctor.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    out.push(...(ownRecord<readonly MisplacedRecord[]>(proto, METADATA_KEYS.misplaced) ?? []));
  }
  return out;
}

/** Per-property options from `@Field`, merged along the prototype chain (nearest wins). */
export function writeField<O extends object>(target: object, propertyKey: string, options: O): void {
  const own = ownRecord<Readonly<Record<string, O>>>(target, METADATA_KEYS.fields) ?? {};
  writeRecord(target, METADATA_KEYS.fields, Object.freeze({ ...own, [propertyKey]: Object.freeze({ ...options }) }));
}

export function readFields<O extends object>(ctor: Function): Readonly<Record<string, O>> {
  const chain: Readonly<Record<string, O>>[] = [];
  for (let proto = ctor.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const own = ownRecord<Readonly<Record<string, O>>>(proto, METADATA_KEYS.fields);
    if (own) chain.push(own);
  }
  // Most classes declare their fields alone: their own record, frozen, is the answer, uncopied
  // (start-up reads one argument class per tool).
  if (chain.length <= 1) return chain[0] ?? NO_FIELDS;
  return Object.freeze(Object.assign({}, ...chain.reverse()));
}

const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});

export function writeClassOptions<O extends object>(key: typeof METADATA_KEYS.elicit, ctor: Function, options: O): void {
  writeRecord(ctor, key, Object.freeze({ ...options }));
}

export function readClassOptions<O>(key: typeof METADATA_KEYS.elicit, ctor: Function): O | undefined {
  return ownRecord<O>(ctor, key);
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
  const own = ownRecord<readonly unknown[]>(target, key, propertyKey) ?? [];
  writeRecord(target, key, Object.freeze([...members, ...own]), propertyKey);
}

/** The pipeline members of a class: its own, else the nearest ancestor's. */
export function readClassPipelineMembers(key: PipelineKey, ctor: Constructor): readonly unknown[] {
  return nearestRecord<readonly unknown[]>(ctor, key) ?? [];
}

/** The pipeline members of one method: its nearest declaration's. */
export function readMethodPipelineMembers(key: PipelineKey, ctor: Constructor, propertyKey: string): readonly unknown[] {
  return nearestRecord<readonly unknown[]>(ctor.prototype, key, propertyKey) ?? [];
}

/**
 * Adds `@RequireScopes` scopes to a class (`propertyKey` undefined) or one of its methods, after
 * those recorded there before. A method's own list stays its own: a subclass adds to a copy.
 */
export function appendScopes(target: object, propertyKey: string | undefined, scopes: readonly string[]): void {
  const own = ownRecord<readonly string[]>(target, METADATA_KEYS.scopes, propertyKey) ?? [];
  writeRecord(target, METADATA_KEYS.scopes, Object.freeze([...own, ...scopes]), propertyKey);
}

/** The `@RequireScopes` scopes of a class: its own, else the nearest ancestor's. */
export function readClassScopes(ctor: Constructor): readonly unknown[] {
  return nearestRecord<readonly unknown[]>(ctor, METADATA_KEYS.scopes) ?? [];
}

/** The `@RequireScopes` scopes of one method: its nearest declaration's. */
export function readMethodScopes(ctor: Constructor, propertyKey: string): readonly unknown[] {
  return nearestRecord<readonly unknown[]>(ctor.prototype, METADATA_KEYS.scopes, propertyKey) ?? [];
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
