import { isDtoClass, readClassProperties, type ClassProperty } from './class-property.reader';
import { enumRulesOf, isListedEnumValue } from './enum-members.check';
import { toOptions } from './field-options.applier';
import { compileInstanceBuilder, UNSURE, type InstanceBuilder } from './instance-builder.compiler';
import type { JsonSchema } from './json-schema.types';
import { compileRuleRunner } from './rule-runner.compiler';
import { readPropertyRules, type ValidationRule } from './validation-metadata.adapter';

/**
 * Builds a valid instance, or says "not sure" (`undefined`): the caller then takes the full path
 * (class-transformer + class-validator), which also writes the error messages. So this may only
 * ever accept what the full path accepts, building an equal instance; invalid input always ends
 * on the full path, and so does anything the compiler does not cover. With `declared`, `plain`
 * is read as its copy holding only those own properties (listed in that copy's key order).
 */
export type CompiledValidator = (plain: Record<string, unknown>, declared?: readonly string[]) => object | undefined;

const validators = new WeakMap<Function, CompiledValidator | null>();

/**
 * The argument class `cls`'s validator, compiled once from its class-validator and
 * class-transformer metadata (and its nested classes'), or `undefined` for a class the compiler
 * does not cover. Cached per class. `schema` is the class's compiled schema (its `required`).
 */
export function compiledValidator(cls: Function, schema: JsonSchema): CompiledValidator | undefined {
  let validator = validators.get(cls);
  if (validator === undefined) {
    validator = compile(cls, schema) ?? null;
    validators.set(cls, validator);
  }
  return validator ?? undefined;
}

function compile(cls: Function, schema: JsonSchema): CompiledValidator | undefined {
  const builders = new Map<Function, InstanceBuilder>();
  const root = compileInstanceBuilder(cls, builders);
  const rules = root && compileRuleRunner(builders.keys());
  if (!root || !rules) return undefined;
  const enums = compileEnumWalk(builders.keys());
  // A required property whose own rules refuse `undefined` needs no second look.
  const ruled = new Set((readPropertyRules(cls) ?? []).filter((p) => p.refusesUndefined).map((p) => p.property));
  const required = ((schema.required as string[] | undefined) ?? []).filter((name) => !ruled.has(name));
  const choices = readClassProperties(cls).filter((p) => p.field.oneOf && !p.rules.some((r) => CHOICE_RULES.has(r.name))).map(choiceCheck);
  // The checks after the rules, only those the class needs: most have no choices or enums to look at.
  const after: Array<(instance: Record<string, unknown>) => boolean> = [
    ...(required.length > 0 ? [(record: Record<string, unknown>) => holdsAll(record, required)] : []),
    ...choices,
    ...(enums ? [enums] : []),
  ];
  return (plain, declared) => {
    try {
      const instance = declared ? root.buildDeclared(plain, declared) : root.build(plain);
      if (instance === UNSURE || rules(instance) !== true) return undefined;
      for (const accepts of after) if (!accepts(instance as Record<string, unknown>)) return undefined;
      return instance;
    } catch {
      return undefined; // a user constructor or rule threw: the full path reports it
    }
  };
}

function holdsAll(record: Record<string, unknown>, names: readonly string[]): boolean {
  for (const name of names) if (record[name] === undefined) return false;
  return true;
}

const CHOICE_RULES: ReadonlySet<string> = new Set(['isIn', 'isEnum']);

/** `@Field({ oneOf })` without `@IsIn`/`@IsEnum`: the argument validator checks the list on the top-level class. */
function choiceCheck(property: ClassProperty): (instance: Record<string, unknown>) => boolean {
  const allowed = toOptions(property.field.oneOf!).map((o) => o.const);
  return (instance) => {
    const value = instance[property.name];
    if (value === undefined) return true;
    return Array.isArray(value) ? value.every((v) => allowed.includes(v)) : allowed.includes(value);
  };
}

/**
 * The argument validator's `unlistedEnumValues` as a yes/no walk: every DTO instance reached
 * through properties with nested types holds only the `@IsEnum` values the schema lists.
 * `undefined` when none of the classes has an `@IsEnum` to look at.
 */
function compileEnumWalk(classes: Iterable<Function>): ((instance: object) => boolean) | undefined {
  const byClass = new Map<Function, { enums: Array<readonly [string, ValidationRule]>; nested: string[] }>();
  for (const cls of classes) {
    const properties = readClassProperties(cls);
    byClass.set(cls, {
      enums: properties.flatMap((p) => enumRulesOf(p).map((rule) => [p.name, rule] as const)),
      nested: properties.filter((p) => p.nestedTypes.length > 0).map((p) => p.name),
    });
  }
  if (![...byClass.values()].some((plan) => plan.enums.length > 0)) return undefined;
  const walk = (value: unknown): boolean => {
    if (value === null || typeof value !== 'object') return true;
    if (Array.isArray(value)) return value.every(walk);
    if (!isDtoClass(value.constructor)) return true;
    const plan = byClass.get(value.constructor);
    if (!plan) return false; // not a class the builder made: let the full path look
    const record = value as Record<string, unknown>;
    for (const [name, rule] of plan.enums) if (!isListedEnumValue(rule, record[name])) return false;
    for (const name of plan.nested) if (!walk(record[name])) return false;
    return true;
  };
  return walk;
}
