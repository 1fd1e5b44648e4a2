/**
 * The one module that reads class-validator's and class-transformer's private metadata storage.
 * Both libraries keep decorator metadata in undocumented singletons; if either changes its
 * internals, this file is the only one to fix.
 */
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** The normalised view of one class-validator metadata entry (one decorator on one property). */
export interface ValidationRule {
  /**
   * The rule's name: class-validator's own (`'isString'`, `'min'`, `'isOptional'`), the `name`
   * given to `@ValidateBy`/`registerDecorator`/`@ValidatorConstraint`, or, for unnamed system
   * rules, the metadata type (`'nestedValidation'`, `'conditionalValidation'`).
   */
  readonly name: string;
  /** class-validator's metadata type: `'customValidation'`, `'nestedValidation'`, ... */
  readonly type: string;
  /** The decorator's arguments, e.g. `[14]` for `@Max(14)`, `[['a', 'b']]` for `@IsIn`. */
  readonly constraints: readonly unknown[];
  /** `{ each: true }`: the rule applies to every element of an array property. */
  readonly each: boolean;
}

/** What class-transformer's `@Type(() => X)` says about a property. */
interface TypeMetadata {
  readonly typeFunction: (options?: unknown) => unknown;
  readonly options?: { discriminator?: { subTypes?: readonly { value: unknown }[] } };
}

interface TransformerStorage {
  findTypeMetadata(target: Function, propertyName: string): TypeMetadata | undefined;
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): readonly unknown[];
  findExposeMetadata(target: Function, propertyName: string): unknown;
  findExcludeMetadata(target: Function, propertyName: string): unknown;
  getStrategy(target: Function): string;
}

// class-transformer ships no typings for its storage module, and exports no accessor for it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transformerStorage: TransformerStorage = require('class-transformer/cjs/storage').defaultMetadataStorage;

/**
 * The rules on each property of `cls` and its ancestors, grouped by property. Ancestors' properties
 * come first and each group keeps declaration order, so the schema reads like the source.
 */
export function readValidationRules(cls: Function): Map<string, ValidationRule[]> {
  const depth = new Map<Function, number>();
  for (let c: unknown = cls, i = 0; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    depth.set(c as Function, i++);
  }
  const metadatas = targetMetadatas(cls)
    .filter((m) => typeof m.target === 'function')
    .map((m, index) => ({ m, index, depth: depth.get(m.target as Function) ?? 0 }))
    // Deepest ancestor first; the sort is stable, so declaration order survives within a class.
    .sort((a, b) => b.depth - a.depth || a.index - b.index);

  const byProperty = new Map<string, ValidationRule[]>();
  for (const { m } of metadatas) {
    const rules = byProperty.get(m.propertyName) ?? [];
    rules.push(toRule(m));
    byProperty.set(m.propertyName, rules);
  }
  return byProperty;
}

function toRule(m: ValidationMetadata): ValidationRule {
  return Object.freeze({
    name: m.name || constraintName(m) || m.type,
    type: m.type,
    constraints: Object.freeze([...(m.constraints ?? [])]),
    each: m.each === true,
  });
}

/** `@Validate(SomeConstraint)` carries no name; the constraint class registered one. */
function constraintName(m: ValidationMetadata): string | undefined {
  if (typeof m.constraintCls !== 'function') return undefined;
  const [registered] = getMetadataStorage().getTargetValidatorConstraints(m.constraintCls);
  return registered?.name || m.constraintCls.name || undefined;
}

/**
 * The class(es) class-transformer will build for a property: `@Type(() => X)` gives `[X]`; a
 * discriminated `@Type` gives its sub-types. `[]` when there is no `@Type` or it cannot be resolved.
 */
export function readTransformTypes(cls: Function, propertyName: string): Function[] {
  const meta = transformerStorage.findTypeMetadata(cls, propertyName);
  if (!meta) return [];
  const subTypes = meta.options?.discriminator?.subTypes;
  if (subTypes?.length) return subTypes.map((s) => s.value).filter(isFunction);
  try {
    const resolved = meta.typeFunction();
    return isFunction(resolved) ? [resolved] : [];
  } catch {
    return []; // a typeFunction that needs its runtime arguments: nothing to advertise
  }
}

function isFunction(value: unknown): value is Function {
  return typeof value === 'function';
}

/**
 * One property's rules as direct checks, run exactly as class-validator's executor runs them:
 * conditions first (a false one skips the property), then `@IsDefined`, then every other rule,
 * each through the constraint instance class-validator registered. A check answers `true`,
 * `false`, or `undefined` when it cannot decide synchronously (an async rule).
 */
export type PropertyCheck = (value: unknown, object: object) => boolean | undefined;

const TRANSFORMATION_TYPES = [0, 1, 2]; // class-transformer's PLAIN_TO_CLASS, CLASS_TO_PLAIN, CLASS_TO_CLASS

/**
 * Checks for every validated property of `cls`, or `undefined` when the class uses something the
 * direct path does not reproduce (groups, nested or whitelist rules, any class-transformer
 * decorator): such classes always take the full class-transformer + class-validator path.
 */
export function compilePropertyChecks(cls: Function, properties: readonly string[]): Map<string, PropertyCheck> | undefined {
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (transformerStorage.getStrategy(c as Function) !== 'none') return undefined;
  }
  for (const name of properties) {
    if (transformerStorage.findTypeMetadata(cls, name) || transformerStorage.findExposeMetadata(cls, name) || transformerStorage.findExcludeMetadata(cls, name)) return undefined;
    if (TRANSFORMATION_TYPES.some((t) => transformerStorage.findTransformMetadatas(cls, name, t).length > 0)) return undefined;
  }
  const storage = getMetadataStorage();
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of targetMetadatas(cls)) {
    if (m.groups?.length || !DIRECT_TYPES.has(m.type)) return undefined;
    if (m.type !== 'conditionalValidation' && storage.getTargetValidatorConstraints(m.constraintCls).length === 0) return undefined;
    byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  }
  const checks = new Map<string, PropertyCheck>();
  for (const [name, metadatas] of byProperty) checks.set(name, propertyCheck(name, metadatas));
  return checks;
}

const DIRECT_TYPES: ReadonlySet<string> = new Set(['customValidation', 'conditionalValidation', 'isDefined']);

function propertyCheck(property: string, metadatas: readonly ValidationMetadata[]): PropertyCheck {
  const conditions = metadatas.filter((m) => m.type === 'conditionalValidation');
  const rules = [...metadatas.filter((m) => m.type === 'isDefined'), ...metadatas.filter((m) => m.type === 'customValidation')];
  const storage = getMetadataStorage();
  const runners = rules.map((m) => {
    const instances = storage.getTargetValidatorConstraints(m.constraintCls).map((c) => c.instance as { validate(value: unknown, args: unknown): unknown });
    return { m, instances };
  });
  return (value, object) => {
    for (const condition of conditions) if (!(condition.constraints[0] as (o: object, v: unknown) => boolean)(object, value)) return true;
    for (const { m, instances } of runners) {
      const validateIf = (m as { validateIf?: (o: object, v: unknown) => boolean }).validateIf;
      if (validateIf && !validateIf(object, value)) continue;
      const args = { targetName: object.constructor?.name, property, object, value, constraints: m.constraints };
      const each = m.each && Array.isArray(value);
      for (const instance of instances) {
        const verdict = each ? everyItem(instance, value as unknown[], args) : instance.validate(value, args);
        if (typeof verdict !== 'boolean') return undefined;
        if (!verdict) return false;
      }
    }
    return true;
  };
}

/** A rule with `each` on an array: every item must pass; `undefined` as soon as one cannot be decided synchronously. */
function everyItem(instance: { validate(value: unknown, args: unknown): unknown }, items: readonly unknown[], args: unknown): boolean | undefined {
  for (const item of items) {
    const verdict = instance.validate(item, args);
    if (typeof verdict !== 'boolean') return undefined;
    if (!verdict) return false;
  }
  return true;
}

type ByTarget = Map<Function, ValidationMetadata[]>;

/**
 * What class-validator's `getTargetValidationMetadatas(cls, '', true, false)` returns (the class's
 * own rules, then its ancestors' rules for properties and rule types it does not redeclare),
 * read per class along the prototype chain. The library's own method compares the class with
 * every class that has rules, which makes scanning 10,000 argument classes quadratic.
 */
function targetMetadatas(cls: Function): ValidationMetadata[] {
  const storage = getMetadataStorage();
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  if (!(byTarget instanceof Map)) return storage.getTargetValidationMetadatas(cls, '', true, false);
  const own = ((byTarget as ByTarget).get(cls) ?? []).filter((m) => m.target === cls);
  const inherited: ValidationMetadata[] = [];
  for (let c: unknown = Object.getPrototypeOf(cls); typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    inherited.push(...((byTarget as ByTarget).get(c as Function) ?? []).filter((m) => m.target === c));
  }
  const overridden = new Set(own.map((m) => `${m.propertyName}\u0000${m.type}`));
  return [...own, ...inherited.filter((m) => !overridden.has(`${m.propertyName}\u0000${m.type}`))];
}
