import { isDtoClass, readClassProperties, type ClassProperty } from './class-property.reader';
import { enumValues } from './enum-values';
import type { ValidationRule } from './validation-metadata.adapter';

/**
 * class-validator's `@IsEnum(entity)` accepts any value of `Object.keys(entity)`, which for a
 * numeric TypeScript enum includes its members' names (`'Low'` for `Level.Low = 0`), values the
 * advertised `enum` (`[0, 1]`) rules out. This says whether `value` is one the schema lists, so
 * that the name of a member never reaches a handler typed with the enum.
 */
export function isListedEnumValue(rule: ValidationRule, value: unknown): boolean {
  const allowed = enumValues(rule.constraints[0]);
  if (!allowed || value === undefined || value === null) return true;
  return rule.each && Array.isArray(value) ? value.every((item) => allowed.includes(item)) : allowed.includes(value);
}

/** The `@IsEnum` rules of a property that the schema's list narrows; none under `@ValidateIf` (it may skip them). */
export function enumRulesOf(property: ClassProperty): ValidationRule[] {
  if (property.rules.some((r) => r.name === 'conditionalValidation')) return [];
  return property.rules.filter((r) => r.name === 'isEnum');
}

/**
 * One issue line per property of the validated instance (nested DTOs included) whose value
 * class-validator let through an `@IsEnum` although the schema does not list it; properties in
 * `reported` already have their line.
 */
export function unlistedEnumValues(instance: unknown, reported: ReadonlySet<string>): string[] {
  const issues: string[] = [];
  const seen = new Set<object>();
  const walk = (value: unknown, path: string): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${path}[${i}]`));
    if (!isDtoClass(value.constructor)) return;
    for (const property of readClassProperties(value.constructor)) {
      const at = path ? `${path}.${property.name}` : property.name;
      const held = (value as Record<string, unknown>)[property.name];
      const broken = enumRulesOf(property).find((rule) => !isListedEnumValue(rule, held));
      if (broken && !reported.has(at)) {
        issues.push(`${at}: ${broken.each ? 'each value ' : ''}must be one of the following values: ${enumValues(broken.constraints[0])!.join(', ')}`);
      }
      if (property.nestedTypes.length) walk(held, at);
    }
  };
  walk(instance, '');
  return issues;
}
