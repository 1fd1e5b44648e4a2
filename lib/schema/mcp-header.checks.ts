import type { JsonObject } from '../core/wire.types';

/** The annotation that mirrors an argument into an `Mcp-Param-{name}` header (protocol 2026-07-28). */
export const MCP_HEADER = 'x-mcp-header';

/** RFC 9110 field-name token characters (`1*tchar`). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The argument types a header may carry: `number` is not one (the revision's rule). */
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

/**
 * Why a tool's `inputSchema` breaks the revision's rules for `x-mcp-header`, one line each. It
 * matters at start-up: a conforming client drops a tool with a broken annotation from its list,
 * silently for the server's author. The rules: a non-empty token, unique without regard to case,
 * on a `string`, `integer` or `boolean` property reached from the root through `properties` alone
 * (not through `items`, a composition, a condition or `$ref`).
 */
export function mcpHeaderProblems(schema: JsonObject): string[] {
  const walk: HeaderWalk = { problems: [], seen: new Map(), elsewhere: 0 };
  visit(schema, ROOT, false, walk);
  if (walk.elsewhere > 0) {
    walk.problems.push(`"${MCP_HEADER}" may only annotate a property reached through "properties" from the root (not inside items, oneOf/anyOf/allOf/not, if/then/else or $ref): ${walk.elsewhere} found elsewhere`);
  }
  return walk.problems;
}

/** What one check has found so far: problem lines in schema order, header names by lower case, the misplaced count. */
interface HeaderWalk {
  readonly problems: string[];
  readonly seen: Map<string, string>;
  elsewhere: number;
}

/** Where the walk stands at the root: its properties are reachable, its own annotation is not. */
const ROOT = Symbol('root');

/**
 * One pass over the whole schema, in document order (start-up runs it on every tool's schema).
 * `path`: the dotted path of a property reached from the root through `properties` alone, `ROOT`
 * at the root, else undefined. `isSchemaMap`: `node` maps names to schemas, so a key
 * `x-mcp-header` in it names a property; it is not an annotation.
 */
function visit(node: unknown, path: string | typeof ROOT | undefined, isSchemaMap: boolean, walk: HeaderWalk): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, undefined, false, walk);
    return;
  }
  if (!isObject(node)) return;
  if (!isSchemaMap && Object.hasOwn(node, MCP_HEADER)) {
    if (path === undefined || path === ROOT) walk.elsewhere += 1;
    else annotationProblems(node, path, walk);
  }
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (isSchemaMap) visit(value, path === undefined || !isObject(value) ? undefined : path === ROOT ? key : `${path}.${key}`, false, walk);
    else visit(value, key === 'properties' && path !== undefined && isObject(value) ? path : undefined, SCHEMA_MAPS.has(key), walk);
  }
}

function annotationProblems(property: JsonObject, path: string, { problems, seen }: HeaderWalk): void {
  const value = property[MCP_HEADER];
  if (typeof value !== 'string' || value === '') {
    problems.push(`"${path}": "${MCP_HEADER}" must be a non-empty string`);
    return;
  }
  if (!TOKEN.test(value)) problems.push(`"${path}": "${MCP_HEADER}" "${value}" must be an HTTP field-name token (letters, digits and !#$%&'*+-.^_\`|~)`);
  if (!HEADER_TYPES.has(property.type)) problems.push(`"${path}": "${MCP_HEADER}" needs a string, integer or boolean property (this one is ${JSON.stringify(property.type ?? 'untyped')})`);
  const key = value.toLowerCase();
  const other = seen.get(key);
  if (other !== undefined) problems.push(`"${path}": "${MCP_HEADER}" "${value}" is already used by "${other}" (header names ignore case)`);
  else seen.set(key, path);
}

/** Keywords whose value maps names to schemas: a property may be named `x-mcp-header` there. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
