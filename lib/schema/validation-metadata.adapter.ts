/**
 * The one module that reads class-validator's and class-transformer's private metadata storage.
 * Both libraries keep decorator metadata in undocumented singletons; if either changes its
 * internals, this file is the only one to fix.
 */
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { agreesOnProbes, builtInRule, type RuleFunction } from './rule-functions';

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
  /** The property's `design:type` when `@Type` was applied. */
  readonly reflectedType?: unknown;
  readonly options?: { discriminator?: { subTypes?: readonly { value: unknown }[] } };
}

interface TransformerStorage {
  findTypeMetadata(target: Function, propertyName: string): TypeMetadata | undefined;
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): readonly unknown[];
  findExposeMetadata(target: Function, propertyName: string): unknown;
  findExcludeMetadata(target: Function, propertyName: string): unknown;
  getStrategy(target: Function): string;
  getExposedMetadatas(target: Function): readonly unknown[];
  getExcludedMetadatas(target: Function): readonly unknown[];
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
 * One property's rules, ready to run exactly as class-validator's executor runs them: every
 * condition first (one false skips the property), then `@IsDefined`, then the other rules in
 * declaration order, then nested validation.
 */
export interface PropertyRules {
  readonly property: string;
  /** `@IsOptional` and `@ValidateIf`: `(object, value) => boolean`. */
  readonly conditions: readonly ((object: object, value: unknown) => boolean)[];
  /** `@IsDefined` first, then every other rule; each answers `true`, `false`, or `undefined` (cannot say synchronously). */
  readonly rules: readonly RuleCheck[];
  /** `@ValidateNested`: the value's objects are validated by their own class's rules. */
  readonly nested: boolean;
  /** No condition can skip the property and a built-in rule on it always refuses `undefined`: its rules alone make it required. */
  readonly refusesUndefined: boolean;
}

/** One rule on one property, `each` included: `(value, object) => verdict`. */
export type RuleCheck = (value: unknown, object: object) => boolean | undefined;

/** Rule kinds the compiled validator runs itself; any other (groups aside) sends the class to the full path. */
const COMPILED_TYPES: ReadonlySet<string> = new Set(['customValidation', 'conditionalValidation', 'isDefined', 'nestedValidation']);

/**
 * The rules of `cls` grouped by property, or `undefined` when the class uses something the
 * compiled validator does not reproduce: groups, async rules, promise or whitelist rules, or a
 * schema registered by name (class-validator then mixes its rules into nested classes).
 */
export function readPropertyRules(cls: Function): PropertyRules[] | undefined {
  const storage = getMetadataStorage();
  const byTarget = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  if (!(byTarget instanceof Map) || hasSchemaTargets(byTarget)) return undefined;
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const m of targetMetadatas(cls)) {
    if (m.groups?.length || !COMPILED_TYPES.has(m.type)) return undefined;
    if (m.type === 'customValidation' || m.type === 'isDefined') {
      const constraints = storage.getTargetValidatorConstraints(m.constraintCls);
      if (constraints.length === 0 || constraints.some((c) => c.async)) return undefined;
    }
    byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  }
  return [...byProperty].map(([property, metadatas]) => Object.freeze({
    property,
    conditions: metadatas.filter((m) => m.type === 'conditionalValidation').map((m) => m.constraints[0] as (object: object, value: unknown) => boolean),
    rules: [...metadatas.filter((m) => m.type === 'isDefined'), ...metadatas.filter((m) => m.type === 'customValidation')].map((m) => ruleCheck(property, m)),
    nested: metadatas.some((m) => m.type === 'nestedValidation'),
    refusesUndefined: !metadatas.some((m) => m.type === 'conditionalValidation') && metadatas.some(refusesUndefined),
  }));
}

/** A rule that runs unconditionally as a bound built-in and answers `false` for `undefined`. */
function refusesUndefined(m: ValidationMetadata): boolean {
  if ((m.type !== 'customValidation' && m.type !== 'isDefined') || (m as { validateIf?: unknown }).validateIf) return false;
  const direct = directRule(m);
  return direct !== undefined && direct(undefined) === false;
}

const schemaTargets = { size: -1, found: false };

/**
 * Whether a schema was registered by name (`registerSchema`): its rules are keyed by a string.
 * Looked for again only when the storage has grown, so that compiling 10,000 classes, all
 * registered before the first call, does not walk the storage 10,000 times.
 */
function hasSchemaTargets(byTarget: Map<unknown, unknown>): boolean {
  if (byTarget.size !== schemaTargets.size) {
    schemaTargets.size = byTarget.size;
    schemaTargets.found = [...byTarget.keys()].some((key) => typeof key === 'string');
  }
  return schemaTargets.found;
}

type ConstraintInstance = { validate(value: unknown, args: unknown): unknown };

/**
 * A built-in rule (by name, and answering like its constraint instance on the probes) is called
 * directly; any other runs through the instance class-validator registered, with the same
 * arguments the executor builds.
 */
function ruleCheck(property: string, m: ValidationMetadata): RuleCheck {
  const instances = constraintInstances(m);
  const argsFor = (object: object, value: unknown) => argumentsFor(m, property, object, value);
  const direct = directRule(m);
  const validateIf = (m as { validateIf?: (object: object, value: unknown) => boolean }).validateIf;
  const each = m.each === true;
  const check: RuleCheck = direct
    ? (value) => (each && Array.isArray(value) ? value.every(direct) : direct(value))
    : (value, object) => {
        const args = argsFor(object, value);
        for (const instance of instances) {
          const verdict = each && Array.isArray(value) ? everyItem(instance, value, args) : settled(instance.validate(value, args));
          if (verdict !== true) return verdict;
        }
        return true;
      };
  return validateIf ? (value, object) => (validateIf(object, value) ? check(value, object) : true) : check;
}

function constraintInstances(m: ValidationMetadata): ConstraintInstance[] {
  return getMetadataStorage().getTargetValidatorConstraints(m.constraintCls).map((c) => c.instance as ConstraintInstance);
}

/** What class-validator's executor passes a constraint's `validate` as its second argument. */
function argumentsFor(m: ValidationMetadata, property: string, object: object, value: unknown): unknown {
  return { targetName: object.constructor?.name, property, object, value, constraints: m.constraints };
}

/** The built-in rule bound to `m`'s constraints, when it answers like `m`'s one constraint instance on the probes. */
function directRule(m: ValidationMetadata): RuleFunction | undefined {
  const bound = builtInRule(m.name ?? '', m.constraints ?? []);
  if (!bound) return undefined;
  const instances = constraintInstances(m);
  const property = m.propertyName;
  return instances.length === 1 && agreesOnProbes(bound, (probe) => instances[0].validate(probe, argumentsFor(m, property, {}, probe))) ? bound : undefined;
}

/** A rule with `each` on an array: every item must pass; `undefined` as soon as one cannot be decided synchronously. */
function everyItem(instance: ConstraintInstance, items: readonly unknown[], args: unknown): boolean | undefined {
  for (const item of items) {
    const verdict = settled(instance.validate(item, args));
    if (verdict !== true) return verdict;
  }
  return true;
}

/** A boolean verdict as it is; anything else (a promise, a truthy object) is not one the compiled path decides. */
function settled(verdict: unknown): boolean | undefined {
  if (typeof verdict === 'boolean') return verdict;
  if (verdict !== null && typeof verdict === 'object' && typeof (verdict as { catch?: unknown }).catch === 'function') {
    (verdict as Promise<unknown>).catch(() => undefined); // the full path runs it again and reports
  }
  return undefined;
}

const TRANSFORMATION_TYPES = [0, 1, 2]; // class-transformer's PLAIN_TO_CLASS, CLASS_TO_PLAIN, CLASS_TO_CLASS

/** What class-transformer does with one property on the way in: convert it to `type`, or copy it (`type` undefined). */
export interface PropertyTransform {
  readonly type: Function | undefined;
}

const NO_TYPE: PropertyTransform = Object.freeze({ type: undefined });

/**
 * Whether class-transformer builds instances of `cls` by plain copying: the default strategy
 * along its prototype chain and no `@Expose`/`@Exclude` anywhere on it.
 */
export function transformsPlainly(cls: Function): boolean {
  for (let c: unknown = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (transformerStorage.getStrategy(c as Function) !== 'none') return false;
  }
  return transformerStorage.getExposedMetadatas(cls).length === 0 && transformerStorage.getExcludedMetadatas(cls).length === 0;
}

/**
 * How class-transformer converts `cls`'s property `name`, or `undefined` when the compiled
 * validator does not reproduce it: `@Transform`, a discriminator, a `@Type` function that reads
 * its arguments or throws, or a declared type (Set, Map) that changes the container it builds.
 */
export function readPropertyTransform(cls: Function, name: string): PropertyTransform | undefined {
  if (TRANSFORMATION_TYPES.some((t) => transformerStorage.findTransformMetadatas(cls, name, t).length > 0)) return undefined;
  const meta = transformerStorage.findTypeMetadata(cls, name);
  if (!meta) return NO_TYPE;
  if (meta.options?.discriminator || typeof meta.typeFunction !== 'function' || meta.typeFunction.length > 0) return undefined;
  if (!buildsPlainArray(meta.reflectedType)) return undefined;
  try {
    const type = meta.typeFunction();
    return typeof type === 'function' ? Object.freeze({ type }) : undefined;
  } catch {
    return undefined;
  }
}

/** class-transformer builds an array value into `new reflectedType()` when that is a Set or has `push`. */
function buildsPlainArray(reflectedType: unknown): boolean {
  if (reflectedType === undefined || reflectedType === Array) return true;
  if (typeof reflectedType !== 'function' || reflectedType === Map) return false;
  try {
    const made: unknown = Reflect.construct(reflectedType, []);
    return !(made instanceof Set) && !(made !== null && typeof made === 'object' && 'push' in made);
  } catch {
    return false;
  }
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
