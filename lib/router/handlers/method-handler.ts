import type { Context } from '../../context/context';
import type { Method } from '../../protocol/methods';
import type { Diagnostics } from '../../protocol/diagnostics';
import { ProtocolError } from '../../protocol/errors';
import type { JsonObject } from '../../protocol/wire.types';
import type { Paginator } from '../pagination';
import type { Registry } from '../registry';
import type { Visibility } from '../visibility';

/** One MCP method: validated params in, a result object out; failures thrown as `ProtocolError`. */
export type MethodHandler = (params: JsonObject, ctx: Context) => Promise<JsonObject>;
export type MethodEntry = readonly [Method, MethodHandler];

/** What the handlers share: the tables and the server-wide settings. */
export interface HandlerDeps {
  readonly registry: Registry;
  readonly paginator: Paginator;
  readonly diagnostics: Diagnostics;
  readonly visible: Visibility;
}

/** Reads a required string parameter, or fails with invalid params naming it. */
export function requireString(params: JsonObject, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw ProtocolError.invalidParams(`"${key}" must be a string`);
  return value;
}

/** Reads an optional object parameter (arguments), or fails with invalid params naming it. */
export function optionalObject(params: JsonObject, key: string): JsonObject {
  const value = params[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw ProtocolError.invalidParams(`"${key}" must be an object`);
  return value as JsonObject;
}
