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
  const problems: string[] = [];
  const seen = new Map<string, string>();
  let reachable = 0;
  const visit = (node: JsonObject, path: readonly string[]): void => {
    const properties = node.properties;
    if (!isObject(properties)) return;
    for (const [name, child] of Object.entries(properties)) {
      if (!isObject(child)) continue;
      const at = [...path, name];
      if (Object.hasOwn(child, MCP_HEADER)) {
        reachable += 1;
        problems.push(...annotationProblems(child, at.join('.'), seen));
      }
      visit(child, at);
    }
  };
  visit(schema, []);
  const everywhere = countAnnotations(schema);
  if (everywhere > reachable) {
    problems.push(`"${MCP_HEADER}" may only annotate a property reached through "properties" from the root (not inside items, oneOf/anyOf/allOf/not, if/then/else or $ref): ${everywhere - reachable} found elsewhere`);
  }
  return problems;
}

function annotationProblems(property: JsonObject, path: string, seen: Map<string, string>): string[] {
  const value = property[MCP_HEADER];
  if (typeof value !== 'string' || value === '') return [`"${path}": "${MCP_HEADER}" must be a non-empty string`];
  const problems: string[] = [];
  if (!TOKEN.test(value)) problems.push(`"${path}": "${MCP_HEADER}" "${value}" must be an HTTP field-name token (letters, digits and !#$%&'*+-.^_\`|~)`);
  if (!HEADER_TYPES.has(property.type)) problems.push(`"${path}": "${MCP_HEADER}" needs a string, integer or boolean property (this one is ${JSON.stringify(property.type ?? 'untyped')})`);
  const key = value.toLowerCase();
  const other = seen.get(key);
  if (other !== undefined) problems.push(`"${path}": "${MCP_HEADER}" "${value}" is already used by "${other}" (header names ignore case)`);
  else seen.set(key, path);
  return problems;
}

/** Keywords whose value maps names to schemas: a property may be named `x-mcp-header` there. */
const SCHEMA_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

function countAnnotations(node: unknown, isSchemaMap = false): number {
  if (Array.isArray(node)) return node.reduce((sum: number, item) => sum + countAnnotations(item), 0);
  if (!isObject(node)) return 0;
  let count = !isSchemaMap && Object.hasOwn(node, MCP_HEADER) ? 1 : 0;
  for (const [key, value] of Object.entries(node)) count += countAnnotations(value, !isSchemaMap && SCHEMA_MAPS.has(key));
  return count;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
