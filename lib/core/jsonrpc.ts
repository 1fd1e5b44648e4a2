import { ErrorCode } from './error-codes';
import type { ErrorObject } from './error-mapper';
import type { JsonObject } from './wire.types';

// JSON-RPC 2.0 message shapes, typed once.

/** A JSON-RPC request id: MCP allows a string or an integer, never `null`, unique among a sender's pending requests. */
export type RequestId = string | number;

/** A JSON-RPC request: it expects exactly one response with the same `id`. */
export interface JsonRpcRequest { readonly jsonrpc: '2.0'; readonly id: RequestId; readonly method: string; readonly params?: JsonObject }
/** A JSON-RPC notification: no `id`, and no response. */
export interface JsonRpcNotification { readonly jsonrpc: '2.0'; readonly method: string; readonly params?: JsonObject }
/** A response that carries the method's result. */
export interface JsonRpcSuccess { readonly jsonrpc: '2.0'; readonly id: RequestId; readonly result: JsonObject }
/** A response that carries an error; `id` is `null` when the request's id could not be read (a parse error). */
export interface JsonRpcFailure { readonly jsonrpc: '2.0'; readonly id: RequestId | null; readonly error: ErrorObject }
/** The answer to one request: a result or an error. */
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
/** Any single JSON-RPC message, as stored in an event stream or carried by a transport. */
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
/** The answer to a JSON-RPC batch (protocol 2025-03-26 only): the responses of its elements. */
export type JsonRpcBatchResponse = readonly JsonRpcResponse[];

/** An incoming value sorted by what it is; `invalid` carries the error to answer with. */
export type Classified =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'response'; readonly message: JsonRpcResponse }
  | { readonly kind: 'invalid'; readonly id: RequestId | null; readonly error: ErrorObject };

/** A JSON-RPC id as the spec allows it: a string or a finite number. */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(id: RequestId | null, message: string): Classified {
  return { kind: 'invalid', id, error: { code: ErrorCode.InvalidRequest, message } };
}

/**
 * How deeply containers may nest in one message, the message itself being level 1. Real traffic
 * stays far below it (a tool's arguments start at level 4, and even a JSON Schema or a syntax tree
 * passed as an argument rarely reaches 30); far deeper values overflow the stack of the recursive
 * code that meets them later (structured cloning, validation, canonical digests).
 */
export const DEFAULT_MAX_JSON_DEPTH = 100;

/**
 * Sorts one parsed JSON value into a request, notification, response, or an invalid request.
 * Every transport calls it on every message, so the depth limit holds everywhere; a request
 * nested too deeply is refused with its own id, which sits at the top level.
 */
export function classify(value: unknown, maxDepth = DEFAULT_MAX_JSON_DEPTH): Classified {
  if (!isObject(value)) return invalid(null, 'Invalid Request: a message must be a JSON object');
  const id = isRequestId(value.id) ? value.id : null;
  if (nestsDeeperThan(value, maxDepth)) return invalid(id, `Invalid Request: the message nests deeper than ${maxDepth} levels`);
  if (value.jsonrpc !== '2.0') return invalid(id, 'Invalid Request: "jsonrpc" must be "2.0"');
  if ('method' in value) {
    if (typeof value.method !== 'string') return invalid(id, 'Invalid Request: "method" must be a string');
    if (value.params !== undefined && !isObject(value.params)) return invalid(id, 'Invalid Request: "params" must be an object');
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isRequestId(value.id)) return invalid(null, 'Invalid Request: "id" must be a string or a number');
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  if ('result' in value || 'error' in value) {
    if (!isRequestId(value.id) && value.id !== null) return invalid(null, 'Invalid Request: a response needs an id');
    if ('result' in value ? !isObject(value.result) : !isObject(value.error)) return invalid(id, 'Invalid Request: malformed response');
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  return invalid(id, 'Invalid Request: neither a request, a notification nor a response');
}

/** Whether containers nest below `levels` levels, `value` counting as the first; stops at the limit. */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value) if (nestsDeeperThan((value as JsonObject)[key], levels - 1)) return true;
  return false;
}

/** One handler per kind of incoming message: dispatch from a table, not a switch. */
export type ByKind<R> = { readonly [K in Classified['kind']]: (incoming: Extract<Classified, { kind: K }>) => R };

/** Calls the handler for the incoming message's kind. */
export function dispatchByKind<R>(incoming: Classified, handlers: ByKind<R>): R {
  return (handlers[incoming.kind] as (incoming: Classified) => R)(incoming);
}

/** Parses text as JSON; `{ ok: false }` means a parse error (-32700). */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

export const PARSE_ERROR: ErrorObject = Object.freeze({ code: ErrorCode.ParseError, message: 'Parse error' });

export function success(id: RequestId, result: JsonObject): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

export function failure(id: RequestId | null, error: ErrorObject): JsonRpcFailure {
  return { jsonrpc: '2.0', id, error };
}

export function notification(method: string, params?: JsonObject): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function request(id: RequestId, method: string, params?: JsonObject): JsonRpcRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}
