import { internals, type JsonSchema } from './internals';

const { cloneValue, readClassProperties, readPropertyRules } = internals;

/**
 * The bench's other contender: the compiled validator's work for a flat DTO (scalar properties,
 * no `@Type`, no nesting) written as one generated function (`new Function`, as Ajv does),
 * calling the same rule functions. Not used by the framework: it measures whether generated
 * control flow beats the composed closures it ships. `undefined` outside that scope.
 */
export function generatedFlatValidator(cls: Function, schema: JsonSchema): ((plain: Record<string, unknown>) => object | undefined) | undefined {
  const properties = readClassProperties(cls);
  const rules = readPropertyRules(cls);
  if (!rules || properties.some((p) => p.nestedTypes.length > 0)) return undefined;
  const deps: unknown[] = [cls, cloneValue];
  const dep = (value: unknown): string => `d[${deps.push(value) - 1}]`;
  const lit = (text: string): string => JSON.stringify(text);
  const cases = properties.map((p) => `case ${lit(p.name)}: if (!(v === null || v === undefined || typeof v === "string" || typeof v === "number" || typeof v === "boolean")) return undefined; o[${lit(p.name)}] = v; break;`);
  const defaults = properties.filter((p) => p.field.default !== undefined).map((p) => `if (o[${lit(p.name)}] === undefined) o[${lit(p.name)}] = d[1](${dep(p.field.default)});`);
  const checks = rules.map((p) => {
    const conditions = p.conditions.map((c) => `${dep(c)}(o, v)`);
    const skip = conditions.length ? `if (!(${conditions.join(' & ')})) {} else ` : '';
    const body = p.rules.map((r) => `if (${dep(r)}(v, o) !== true) return undefined;`).join(' ');
    return p.nested ? 'return undefined;' : `{ const v = o[${lit(p.property)}]; ${skip}{ ${body} } }`;
  });
  const required = ((schema.required as string[] | undefined) ?? []).map((name) => `if (o[${lit(name)}] === undefined) return undefined;`);
  const source = [
    'return function validate(plain) {',
    '  const o = new d[0]();',
    '  for (const k in plain) { const v = plain[k]; switch (k) {', ...cases.map((c) => `    ${c}`), '    default: return undefined; } }',
    ...defaults, ...checks, ...required,
    '  return o;',
    '};',
  ].join('\n');
  return new Function('d', source)(deps) as (plain: Record<string, unknown>) => object | undefined;
}
