import type { ElicitOptions } from '../metadata/elicit-options';
import { METADATA_KEYS } from '../metadata/metadata-keys';
import { readClassOptions } from '../metadata/metadata-store';
import { DefinitionError } from '../core/errors';
import { compileClassSchema } from './class-schema.compiler';
import type { FormElicitation, RequestedSchema } from './form-elicitation';
import { FORM_FORMATS } from './form-spec.checks';
import { deepFreeze, type JsonSchema } from './json-schema.types';
import { converterGeneration } from './schema-converter.registry';

type Conversion = { readonly schema: JsonSchema } | { readonly problem: string };

const NESTED = 'is a nested object; a form carries only flat string, number, boolean and select fields';
const COMMON = ['type', 'title', 'description', 'default'] as const;

/**
 * How each JSON type of a DTO property becomes a form field (spec: PrimitiveSchemaDefinition).
 * Keywords a form cannot carry (examples, exclusive bounds...) are dropped; validation of the
 * answer still enforces them.
 */
const FORM_FIELDS: Readonly<Record<string, (s: JsonSchema) => Conversion>> = Object.freeze({
  string: (s) => {
    if ((s.format !== undefined && !Object.hasOwn(FORM_FORMATS, String(s.format))) || s.format === 'date_time') {
      return { problem: `has format ${JSON.stringify(s.format)}; forms allow only email, uri, date, date-time` };
    }
    const values = Array.isArray(s.enum) ? s.enum : Array.isArray(s.oneOf) ? s.oneOf.map((o) => (o as JsonSchema).const) : [];
    if (!values.every((v) => typeof v === 'string')) return { problem: 'offers non-string choices; form selects carry strings only' };
    if (Array.isArray(s.enumNames) && (!Array.isArray(s.enum) || s.enumNames.length !== s.enum.length)) {
      return { problem: 'has enumNames that do not match its @IsIn values one for one' };
    }
    return { schema: pick(s, [...COMMON, 'minLength', 'maxLength', 'pattern', 'format', 'enum', 'oneOf', 'enumNames']) };
  },
  number: numberField,
  integer: numberField,
  boolean: (s) => ({ schema: pick(s, COMMON) }),
  array: (s) => {
    const items = (s.items ?? {}) as JsonSchema;
    const strings = (list: unknown): boolean => Array.isArray(list) && list.length > 0 && list.every((v) => typeof v === 'string');
    const options = Array.isArray(items.anyOf) ? items.anyOf.map((o) => (o as JsonSchema).const) : undefined;
    const multi = strings(items.enum) ? { type: 'string', enum: items.enum } : strings(options) ? { anyOf: items.anyOf } : undefined;
    if (!multi) return { problem: 'is an array of non-enum values; a form carries only multi selects (@IsIn([...], { each: true }))' };
    return { schema: { ...pick(s, [...COMMON, 'minItems', 'maxItems']), items: multi } };
  },
  object: () => ({ problem: NESTED }),
});

function numberField(s: JsonSchema): Conversion {
  if (s.enum !== undefined || s.oneOf !== undefined) return { problem: 'offers non-string choices; form selects carry strings only' };
  return { schema: pick(s, [...COMMON, 'minimum', 'maximum']) };
}

/**
 * The problems `compileFormClass` would throw for, one line each with a `Class#property` label;
 * `[]` when fine. The scanner calls it to report bad forms with every other definition problem.
 *
 * @example
 * formClassProblems(Trip); // ['Trip#address: is a nested object; a form carries only flat ...']
 */
export function formClassProblems(cls: Function): string[] {
  return analyse(cls).problems;
}

/**
 * Compiles an `@Elicit` class to the message and flat `requestedSchema` of a form. Throws a
 * `DefinitionError` listing every property a form cannot carry.
 *
 * @example
 * @Elicit({ message: 'Where to?' })
 * class Destination {
 *   @Field({ title: 'City' }) @IsString() city!: string;
 * }
 * compileFormClass(Destination);
 * // { message: 'Where to?', requestedSchema: { type: 'object', properties: { city: { type: 'string', title: 'City' } }, required: ['city'] } }
 */
export function compileFormClass(cls: Function): { message: string; requestedSchema: RequestedSchema } {
  const { message, requestedSchema, problems } = analyse(cls);
  if (problems.length) throw new DefinitionError(problems);
  return { message, requestedSchema };
}

const forms = new WeakMap<Function, { generation: number; form: FormElicitation }>();

/**
 * The form elicitation of an `@Elicit` class, compiled once and cached; `ctx.elicit(Class)` sends it.
 *
 * @example
 * const form = formFromClass(Destination); // { mode: 'form', message, requestedSchema, formClass: Destination }
 */
export function formFromClass(cls: Function): FormElicitation {
  const hit = forms.get(cls);
  if (hit && hit.generation === converterGeneration()) return hit.form;
  const form: FormElicitation = Object.freeze({ mode: 'form', ...compileFormClass(cls), formClass: cls });
  forms.set(cls, { generation: converterGeneration(), form });
  return form;
}

function analyse(cls: Function): { message: string; requestedSchema: RequestedSchema; problems: string[] } {
  if (typeof cls !== 'function') return { message: '', requestedSchema: { type: 'object', properties: {} }, problems: [`${String(cls)} is not a class`] };
  const label = cls.name || 'anonymous class';
  const options = readClassOptions<ElicitOptions>(METADATA_KEYS.elicit, cls);
  const problems: string[] = [];
  if (!options) problems.push(`${label}: is not decorated with @Elicit`);
  else if (typeof options.message !== 'string' || !options.message.trim()) problems.push(`${label}: @Elicit needs a non-empty message`);

  const schema = compileClassSchema(cls);
  const properties: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
    const conversion = toFormField(property);
    if ('problem' in conversion) problems.push(`${label}#${name}: ${conversion.problem}`);
    else properties[name] = conversion.schema;
  }
  const required = (schema.required as string[] | undefined) ?? [];
  const requestedSchema: RequestedSchema = { type: 'object', properties, ...(required.length ? { required: [...required] } : {}) };
  return { message: options?.message ?? '', requestedSchema: deepFreeze(requestedSchema), problems };
}

function toFormField(s: JsonSchema): Conversion {
  if (s.$ref !== undefined || s.anyOf !== undefined) return { problem: NESTED };
  const convert = typeof s.type === 'string' && Object.hasOwn(FORM_FIELDS, s.type) ? FORM_FIELDS[s.type] : undefined;
  return convert ? convert(s) : { problem: 'has no form type; declare it with @IsString, @IsNumber, @IsInt, @IsBoolean or @IsIn' };
}

/** A copy with only `keys`, leaving absent ones out. Values are copied as they are already frozen JSON. */
function pick(s: JsonSchema, keys: readonly string[]): JsonSchema {
  return Object.fromEntries(keys.filter((k) => s[k] !== undefined).map((k) => [k, s[k]]));
}

// Validating an answer belongs with compiling the form it answers; it lives in its own file for size.
