import type { Constructor } from '../metadata/metadata-store';
import { readClassProperties, type ClassProperty } from './class-property.reader';
import { enumRulesOf, isListedEnumValue } from './enum-members.check';
import { toOptions } from './field-options.applier';
import { cloneValue, type JsonSchema } from './json-schema.types';
import { compilePropertyChecks, type PropertyCheck } from './validation-metadata.adapter';

/**
 * Builds a valid instance, or says "not sure" (`undefined`): the caller then takes the full path,
 * which also writes the error messages. So this path may only ever accept what the full path
 * accepts, and it does: same instance construction, same rule instances, same order.
 */
export type DirectValidator = (plain: Record<string, unknown>) => object | undefined;

const CHOICE_RULES: ReadonlySet<string> = new Set(['isIn', 'isEnum']);
const validators = new WeakMap<Function, DirectValidator | null>();

/**
 * The fast path of argument validation for flat DTOs (primitive and primitive-array properties,
 * class-validator rules only): no class-transformer pass and no error objects for valid input.
 * `undefined` for classes it does not cover. Cached per class.
 */
export function directValidator(cls: Constructor, schema: JsonSchema): DirectValidator | undefined {
  let validator = validators.get(cls);
  if (validator === undefined) {
    validator = compile(cls, schema) ?? null;
    validators.set(cls, validator);
  }
  return validator ?? undefined;
}

function compile(cls: Constructor, schema: JsonSchema): DirectValidator | undefined {
  const properties = readClassProperties(cls);
  if (properties.some((p) => p.nestedTypes.length > 0)) return undefined;
  const checks = compilePropertyChecks(cls, properties.map((p) => p.name));
  if (!checks) return undefined;
  const ordered: Array<[string, PropertyCheck]> = [...checks];
  const required = (schema.required as string[] | undefined) ?? [];
  const defaults = properties.filter((p) => p.field.default !== undefined);
  const choices = properties.filter((p) => p.field.oneOf && !p.rules.some((r) => CHOICE_RULES.has(r.name))).map(choiceCheck);
  // class-validator's @IsEnum also takes a numeric enum's member names; the full path refuses them.
  const enums = properties.flatMap((p) => enumRulesOf(p).map((rule) => [p.name, rule] as const));

  return (plain) => {
    for (const key in plain) if (!isPlainValue(plain[key])) return undefined;
    const instance = new cls() as Record<string, unknown>;
    for (const key in plain) {
      const value = plain[key];
      instance[key] = Array.isArray(value) ? value.slice() : value;
    }
    for (const p of defaults) if (instance[p.name] === undefined) instance[p.name] = cloneValue(p.field.default);
    for (const [name, check] of ordered) if (check(instance[name], instance) !== true) return undefined;
    for (const name of required) if (instance[name] === undefined) return undefined;
    for (const check of choices) if (!check(instance)) return undefined;
    for (const [name, rule] of enums) if (!isListedEnumValue(rule, instance[name])) return undefined;
    return instance;
  };
}

/** Primitives and arrays of primitives: what the direct path copies exactly as class-transformer would. */
function isPlainValue(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return typeof value !== 'function';
  return Array.isArray(value) && value.every((item) => item === null || (typeof item !== 'object' && typeof item !== 'function'));
}

function choiceCheck(property: ClassProperty): (instance: Record<string, unknown>) => boolean {
  const allowed = toOptions(property.field.oneOf!).map((o) => o.const);
  return (instance) => {
    const value = instance[property.name];
    if (value === undefined) return true;
    return Array.isArray(value) ? value.every((v) => allowed.includes(v)) : allowed.includes(value);
  };
}
