import type { HttpRequestLike } from './http-like.types';
import { ErrorCode } from '../../core/error-codes';
import type { ErrorObject } from '../../core/error-mapper';
import type { JsonRpcRequest } from '../../core/jsonrpc';
import { Method } from '../../core/methods';
import type { RequestMeta } from '../../protocol/stateless-era/request-meta';
import type { JsonObject } from '../../core/wire.types';
import { header } from './request-guards';

/** Where `Mcp-Name` comes from, for the methods that carry it. */
const NAME_SOURCE: Readonly<Record<string, string>> = Object.freeze({
  [Method.ToolsCall]: 'name',
  [Method.PromptsGet]: 'name',
  [Method.ResourcesRead]: 'uri',
  // The tasks extension: a balancer may route by task.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});

const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function mismatch(message: string): ErrorObject {
  return { code: ErrorCode.HeaderMismatch, message: `Header mismatch: ${message}` };
}

/** A header value as sent: literal, or Base64 inside `=?base64?…?=`; `undefined` when the encoding is broken. */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!(raw.startsWith(SENTINEL_START) && raw.endsWith(SENTINEL_END) && raw.length >= SENTINEL_START.length + SENTINEL_END.length)) return raw;
  const encoded = raw.slice(SENTINEL_START.length, raw.length - SENTINEL_END.length);
  if (encoded.length % 4 !== 0 || !BASE64.test(encoded)) return undefined;
  return Buffer.from(encoded, 'base64').toString('utf8');
}

function sameValue(headerValue: string, bodyValue: unknown): boolean {
  if (typeof bodyValue === 'number') return headerValue.trim() !== '' && Number(headerValue) === bodyValue;
  if (typeof bodyValue === 'boolean') return headerValue === String(bodyValue);
  return headerValue === bodyValue;
}

/**
 * Streamable HTTP in the stateless era mirrors body fields into headers so that gateways can
 * route without parsing bodies; the server must refuse a request whose headers are missing or
 * disagree (-32020, HTTP 400): `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, and one
 * `Mcp-Param-{Name}` per argument whose schema carries `x-mcp-header`. `toolInputSchema` is that
 * of the tool a `tools/call` names, resolved by the protocol layer (none for a tool the caller may
 * not see: its schema says nothing).
 */
export function checkMirroredHeaders(req: HttpRequestLike, message: JsonRpcRequest, meta: RequestMeta, toolInputSchema: JsonObject | undefined): ErrorObject | undefined {
  const version = header(req, 'mcp-protocol-version');
  if (version === undefined) return mismatch('MCP-Protocol-Version header is required');
  if (version.trim() !== meta.protocolVersion) return mismatch(`MCP-Protocol-Version "${version}" does not match _meta "${meta.protocolVersion}"`);
  const method = header(req, 'mcp-method');
  if (method === undefined) return mismatch('Mcp-Method header is required');
  if (method.trim() !== message.method) return mismatch(`Mcp-Method "${method}" does not match the body method "${message.method}"`);
  // The method is the client's: own entries only, so `toString` is no method that carries a name.
  const source = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  if (!source) return undefined;
  const params = message.params ?? {};
  const rawName = header(req, 'mcp-name');
  if (rawName === undefined) return mismatch('Mcp-Name header is required');
  const name = decodeHeaderValue(rawName.trim());
  if (name === undefined) return mismatch('Mcp-Name has an invalid Base64 encoding');
  if (name !== params[source]) return mismatch(`Mcp-Name "${name}" does not match params.${source}`);
  if (message.method !== Method.ToolsCall || typeof params.name !== 'string') return undefined;
  return checkParamHeaders(req, toolInputSchema, (params.arguments ?? {}) as JsonObject);
}

/** A property of a tool's arguments mirrored in a header: `Mcp-Param-{suffix}`, looked up as `name` (lower case). */
interface MirroredParam {
  readonly property: string;
  readonly suffix: string;
  readonly name: string;
}

const NO_PARAMS: readonly MirroredParam[] = Object.freeze([]);
/** Per input schema (compiled once per tool): most tools mirror nothing, and every call asks. */
const mirroredParams = new WeakMap<JsonObject, readonly MirroredParam[]>();

function mirroredParamsOf(schema: JsonObject | undefined): readonly MirroredParam[] {
  if (!schema) return NO_PARAMS;
  let params = mirroredParams.get(schema);
  if (params === undefined) {
    const properties = (schema.properties ?? {}) as Record<string, JsonObject>;
    params = Object.entries(properties).flatMap(([property, propertySchema]) => {
      const suffix = propertySchema['x-mcp-header'];
      return typeof suffix === 'string' ? [{ property, suffix, name: `mcp-param-${suffix.toLowerCase()}` }] : [];
    });
    mirroredParams.set(schema, params);
  }
  return params;
}

function checkParamHeaders(req: HttpRequestLike, schema: JsonObject | undefined, args: JsonObject): ErrorObject | undefined {
  for (const { property, suffix, name } of mirroredParamsOf(schema)) {
    const raw = header(req, name);
    const value = args[property];
    if (value === undefined || value === null) {
      if (raw !== undefined) return mismatch(`Mcp-Param-${suffix} is present but "${property}" is not`);
      continue;
    }
    if (raw === undefined) return mismatch(`Mcp-Param-${suffix} header is required for "${property}"`);
    const decoded = decodeHeaderValue(raw.trim());
    if (decoded === undefined) return mismatch(`Mcp-Param-${suffix} has an invalid Base64 encoding`);
    if (!sameValue(decoded, value)) return mismatch(`Mcp-Param-${suffix} does not match "${property}"`);
  }
  return undefined;
}
