import { ErrorCode } from '../../core/error-codes';
import type { ErrorObject } from '../../core/error-mapper';
import { LOGGING_LEVELS, type ClientCapabilities, type Implementation, type JsonObject, type LoggingLevel } from '../../core/wire.types';

/** The `_meta` keys of the stateless era (protocol 2026-07-28), spelled once. */
export const MetaKey = Object.freeze({
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const);

/** Revisions of the stateless era this server speaks, newest first. */
export const STATELESS_VERSIONS = Object.freeze(['2026-07-28'] as const);

/** What a stateless request says about itself in `params._meta`. */
export interface RequestMeta {
  readonly protocolVersion: string;
  readonly clientInfo?: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  readonly logLevel?: LoggingLevel;
  readonly progressToken?: string | number;
}

/** True when a message speaks the stateless era: it carries a protocol version in `_meta`. */
export function carriesRequestMeta(params: JsonObject | undefined): boolean {
  const meta = params?._meta;
  return typeof meta === 'object' && meta !== null && MetaKey.protocolVersion in meta;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(message: string): ErrorObject {
  return { code: ErrorCode.InvalidParams, message: `Invalid _meta: ${message}` };
}

/** Reads and checks the per-request `_meta` (-32602 when a required field is missing or malformed). */
export function readRequestMeta(params: JsonObject | undefined): RequestMeta | { error: ErrorObject } {
  const meta = params?._meta;
  if (!isObject(meta)) return { error: malformed('params._meta is required') };
  const version = meta[MetaKey.protocolVersion];
  if (typeof version !== 'string' || version.length === 0) return { error: malformed(`"${MetaKey.protocolVersion}" must be a string`) };
  const capabilities = meta[MetaKey.clientCapabilities];
  if (!isObject(capabilities)) return { error: malformed(`"${MetaKey.clientCapabilities}" must be an object`) };
  const info = meta[MetaKey.clientInfo];
  if (info !== undefined && (!isObject(info) || typeof info.name !== 'string' || typeof info.version !== 'string')) {
    return { error: malformed(`"${MetaKey.clientInfo}" must have a name and a version`) };
  }
  const level = meta[MetaKey.logLevel];
  if (level !== undefined && !LOGGING_LEVELS.includes(level as LoggingLevel)) return { error: malformed(`"${MetaKey.logLevel}" is not a logging level`) };
  const token = meta.progressToken;
  return {
    protocolVersion: version,
    clientInfo: info as Implementation | undefined,
    clientCapabilities: capabilities as ClientCapabilities,
    logLevel: level as LoggingLevel | undefined,
    progressToken: typeof token === 'string' || typeof token === 'number' ? token : undefined,
  };
}
