import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * The MCP registry's `server.json` schema this package writes against, pinned: the file ships
 * beside this module, byte for byte as published (see schemas/README.md for where it came from).
 */
export const REGISTRY_SCHEMA = Object.freeze({
  version: '2025-12-11',
  url: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
  file: join(__dirname, 'schemas', 'server.schema.2025-12-11.json'),
});

let compiled: ValidateFunction | undefined;

/**
 * What is wrong with `document` by the pinned schema, one line each (`/packages/0/version: must
 * NOT be valid`); empty when it is valid. The schema is draft-07 and carries `example` keywords,
 * so ajv runs without strict mode; ajv-formats checks its `uri` formats.
 */
export function registrySchemaProblems(document: unknown): string[] {
  compiled ??= compile();
  if (compiled(document)) return [];
  return (compiled.errors ?? []).map(describe);
}

/** Loaded on first use: every other command of the binary starts without ajv. */
function compile(): ValidateFunction {
  const Ajv = (require('ajv') as typeof import('ajv')).default;
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(REGISTRY_SCHEMA.file, 'utf8')) as object);
}

function describe(error: ErrorObject): string {
  const detail = error.keyword === 'enum' ? ` (${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => JSON.stringify(value)).join(', ')})` : '';
  return `${error.instancePath || '/'}: ${error.message ?? error.keyword}${detail}`;
}
