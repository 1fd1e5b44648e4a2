import { definedOnly } from '../core/defined-only';
import { PhantomError } from '../core/errors';
import type {
  BooleanProperty,
  EnumProperty,
  FormElicitation,
  FormProperty,
  FormSpec,
  NumberProperty,
  RequestedSchema,
  StringProperty,
  UrlElicitation,
  UrlSpec,
} from './form-elicitation';
import { choiceTitle, choiceValue, FORM_FORMATS, formSpecProblems, urlSpecProblems } from './form-spec.checks';
import { deepFreeze, type JsonSchema } from './json-schema.types';

/**
 * Builds a form elicitation from a list of properties (the seed's `Phantom.Elicit.form/1`).
 * Throws a `PhantomError` (`elicitation_invalid`) listing every problem in the spec.
 *
 * @example
 * const info = buildForm({
 *   message: 'What is your info?',
 *   requestedSchema: [
 *     { type: 'string', name: 'name', required: true, title: 'Your name' },
 *     { type: 'string', name: 'email', required: true, title: 'Email', format: 'email' },
 *     { type: 'enum', name: 'role', required: true, title: 'Role', enum: [['dev', 'Developer'], ['pm', 'Product Manager']] },
 *   ],
 * });
 */
export function buildForm(spec: FormSpec): FormElicitation {
  const problems = spec !== null && typeof spec === 'object' ? formSpecProblems(spec) : ['the spec must be an object'];
  if (problems.length) throw new PhantomError('elicitation_invalid', `Invalid form elicitation:\n  - ${problems.join('\n  - ')}`);
  // Our own copies: the caller's objects are never frozen or kept.
  const properties = spec.requestedSchema.map(copyProperty);
  const required = properties.filter((p) => p.required).map((p) => p.name);
  const requestedSchema: RequestedSchema = {
    type: 'object',
    properties: Object.fromEntries(properties.map((p) => [p.name, PROPERTY_JSON[p.type](p)])),
    ...(required.length ? { required } : {}),
  };
  return deepFreeze({ mode: 'form', message: spec.message, requestedSchema, properties });
}

/**
 * Builds a URL elicitation (the seed's `Phantom.Elicit.url/1`): the client opens `url`, and your
 * backend signals completion with `elicitationId`.
 *
 * @example
 * const id = randomUUID();
 * const login = buildUrl({ message: 'Please sign in', url: `https://example.com/oauth?elicitation_id=${id}`, elicitationId: id });
 */
export function buildUrl(spec: UrlSpec): UrlElicitation {
  const problems = spec !== null && typeof spec === 'object' ? urlSpecProblems(spec) : ['the spec must be an object'];
  if (problems.length) throw new PhantomError('elicitation_invalid', `Invalid URL elicitation:\n  - ${problems.join('\n  - ')}`);
  return Object.freeze({ mode: 'url', message: spec.message, url: spec.url, elicitationId: spec.elicitationId });
}

const PARAMS: { readonly [M in 'form' | 'url']: (e: never) => Record<string, unknown> } = {
  form: (e: FormElicitation) => ({ mode: 'form', message: e.message, requestedSchema: e.requestedSchema }),
  url: (e: UrlElicitation) => ({ mode: 'url', message: e.message, url: e.url, elicitationId: e.elicitationId }),
};

/**
 * The `elicitation/create` params for an elicitation, exactly as they go on the wire.
 *
 * @example
 * toElicitParams(buildUrl({ message: 'Sign in', url: 'https://x.test/?id=1', elicitationId: '1' }));
 * // { mode: 'url', message: 'Sign in', url: 'https://x.test/?id=1', elicitationId: '1' }
 */
export function toElicitParams(e: FormElicitation | UrlElicitation): Record<string, unknown> {
  return PARAMS[e.mode](e as never);
}

function copyProperty(p: FormProperty): FormProperty {
  const copy: Record<string, unknown> = { ...p };
  // Without g/y a RegExp keeps no state between tests, so the frozen copy is safe to share.
  if (p.type === 'string' && p.pattern instanceof RegExp) copy.pattern = new RegExp(p.pattern.source, p.pattern.flags.replace(/[gy]/g, ''));
  if (p.type === 'enum') copy.enum = p.enum.map((c) => (typeof c === 'string' ? c : Array.isArray(c) ? [...c] : { ...c }));
  return copy as unknown as FormProperty;
}

const common = (p: FormProperty): JsonSchema => ({ title: p.title, description: p.description });

const PROPERTY_JSON: { readonly [T in FormProperty['type']]: (p: FormProperty) => JsonSchema } = {
  string: (p) => {
    const s = p as StringProperty;
    const pattern = s.pattern instanceof RegExp ? s.pattern.source : s.pattern;
    return definedOnly({ type: 'string', ...common(s), minLength: s.minLength, maxLength: s.maxLength, pattern, format: s.format && FORM_FORMATS[s.format], default: s.default });
  },
  number: (p) => numberJson(p as NumberProperty),
  integer: (p) => numberJson(p as NumberProperty),
  boolean: (p) => definedOnly({ type: 'boolean', ...common(p), default: (p as BooleanProperty).default }),
  enum: (p) => enumJson(p as EnumProperty),
};

function numberJson(p: NumberProperty): JsonSchema {
  return definedOnly({ type: p.type, ...common(p), minimum: p.minimum, maximum: p.maximum, default: p.default });
}

/** The four select shapes of the spec, plus the legacy `enumNames` one. */
function enumJson(p: EnumProperty): JsonSchema {
  const values = p.enum.map(choiceValue);
  const titled = p.enum.some((c) => choiceTitle(c) !== undefined);
  const options = p.enum.map((c) => ({ const: choiceValue(c), title: choiceTitle(c) ?? choiceValue(c) }));
  if (p.multi) {
    const items = titled ? { anyOf: options } : { type: 'string', enum: values };
    const fallback = Array.isArray(p.default) ? [...p.default] : undefined;
    return definedOnly({ type: 'array', ...common(p), items, minItems: p.min, maxItems: p.max, default: fallback });
  }
  const choices = titled ? { oneOf: options } : { enum: values, enumNames: p.enumNames && [...p.enumNames] };
  return definedOnly({ type: 'string', ...common(p), ...choices, default: p.default });
}
