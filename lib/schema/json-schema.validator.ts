import type { ErrorObject } from 'ajv';
import type { JsonSchema } from './json-schema.types';

/** Checks a value against one compiled JSON Schema: one line per problem, `[]` when it conforms. */
export type SchemaCheck = (value: unknown) => string[];

interface CompiledSchema {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

interface SchemaCompiler {
  compile(schema: object): CompiledSchema;
  removeSchema(schema: object): unknown;
}

type CompilerClass = new (options: object) => SchemaCompiler;

/** MCP schemas without `$schema` are JSON Schema 2020-12. */
const DEFAULT_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * The dialects a hand-written schema may declare with `$schema`, each with the Ajv class that
 * implements it (one Ajv instance cannot mix 2020-12 with older drafts). Required on first use:
 * loading Ajv costs tens of milliseconds, and most servers compile no schema with it at all.
 */
const DIALECTS: Readonly<Record<string, () => CompilerClass>> = Object.freeze({
  [DEFAULT_DIALECT]: () => require('ajv/dist/2020').default,
  'https://json-schema.org/draft/2019-09/schema': () => require('ajv/dist/2019').default,
  'http://json-schema.org/draft-07/schema': () => require('ajv').default,
  'http://json-schema.org/draft-07/schema#': () => require('ajv').default,
});

const OPTIONS = Object.freeze({
  // MCP allows any keyword next to the standard ones (x-mcp-header, enumNames): annotations, not errors.
  strict: false,
  allErrors: true,
  // 2020-12 treats `format` as an annotation; DTO formats are checked by their class-validator rules.
  validateFormats: false,
  logger: false,
});

const compilers = new Map<string, SchemaCompiler>();

/**
 * Compiles `schema` once, for checks that then cost only the generated code. Throws when the
 * schema is not valid for its dialect or names a dialect not listed above. `root` names the
 * value itself in problem lines (`arguments: must match "then" schema`).
 *
 * @example
 * const check = compileSchemaCheck({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }, 'arguments');
 * check({ n: 'x' }); // ['n: must be integer']
 */
export function compileSchemaCheck(schema: JsonSchema, root: string): SchemaCheck {
  const dialect = schema.$schema === undefined ? DEFAULT_DIALECT : String(schema.$schema);
  if (!Object.hasOwn(DIALECTS, dialect)) {
    throw new Error(`$schema "${dialect}" is not supported (use ${Object.keys(DIALECTS).join(', ')}, or leave it out for 2020-12)`);
  }
  let compiler = compilers.get(dialect);
  if (!compiler) {
    compiler = new (DIALECTS[dialect]())(OPTIONS);
    compilers.set(dialect, compiler);
  }
  const validate = compiler.compile(schema);
  // The compiled function keeps what it needs; dropping the schema from Ajv's registry keeps the
  // registry from growing with every tool added at run time, and lets two tools share an `$id`.
  compiler.removeSchema(schema);
  return (value) => (validate(value) ? [] : formatSchemaErrors(validate.errors ?? [], root));
}

/** For keywords whose problem is a child property, the property and what to say about it. */
const CHILD_PROBLEMS: Readonly<Record<string, (params: Record<string, unknown>) => readonly [unknown, string]>> = Object.freeze({
  required: (p) => [p.missingProperty, 'is required'],
  additionalProperties: (p) => [p.additionalProperty, 'is not allowed'],
  unevaluatedProperties: (p) => [p.unevaluatedProperty, 'is not allowed'],
});

/** Ajv's errors as lines in the style of argument validation: `stops[1].city: is required`. */
function formatSchemaErrors(errors: readonly ErrorObject[], root: string): string[] {
  const lines = errors.map((error) => {
    const path = pointerToPath(error.instancePath);
    const child = Object.hasOwn(CHILD_PROBLEMS, error.keyword) ? CHILD_PROBLEMS[error.keyword](error.params) : undefined;
    if (child) return `${path ? `${path}.` : ''}${String(child[0])}: ${child[1]}`;
    const allowed = error.keyword === 'enum' ? (error.params as { allowedValues?: unknown[] }).allowedValues : undefined;
    const message = allowed ? `must be one of: ${allowed.map((v) => JSON.stringify(v)).join(', ')}` : error.message ?? `fails "${error.keyword}"`;
    return `${path || root}: ${message}`;
  });
  return [...new Set(lines)];
}

/** `/stops/1/city` -> `stops[1].city` (JSON Pointer escapes undone). */
function pointerToPath(pointer: string): string {
  if (!pointer) return '';
  return pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment), '');
}
