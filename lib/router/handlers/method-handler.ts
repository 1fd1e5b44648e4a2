import type { Context } from '../../context/context';
import type { ElicitationFallback } from '../../context/elicitation-fallback';
import type { Method } from '../../core/methods';
import type { Diagnostics } from '../../core/diagnostics';
import { ProtocolError } from '../../core/errors';
import type { JsonObject, WireTool } from '../../core/wire.types';
import type { ToolDefinition } from '../../definitions/definitions';
import type { Paginator } from '../pagination';
import type { OperationKind } from '../pipeline/execution-context';
import type { Pipelines } from '../pipeline/pipelines';
import type { Registry } from '../registry';
import type { VisibilityResolver } from '../visibility';

/**
 * One MCP method: validated params in, a result object out (at once when nothing had to wait);
 * failures thrown (or rejected) as `ProtocolError`.
 */
export type MethodHandler = (params: JsonObject, ctx: Context) => JsonObject | Promise<JsonObject>;
export type MethodEntry = readonly [Method, MethodHandler];

/** What the handlers share: the tables and the server-wide settings. */
export interface HandlerDeps {
  readonly registry: Registry;
  readonly paginator: Paginator;
  readonly diagnostics: Diagnostics;
  /** Whether an item exists and the caller may know it (the server's `visible` rule): hidden means unknown. */
  readonly visibility: VisibilityResolver;
  /** Longest resource URI a request may name (`maxUriLength`). */
  readonly maxUriLength: number;
  /** Items any one array in a tool's arguments may hold (`maxArrayItems`). */
  readonly maxArrayItems: number;
  /** Whether a template value may decode to a control character (`allowTemplateControlChars`). */
  readonly allowTemplateControlChars: boolean;
  /** The compiled operation pipelines: every handler serves its method through one. */
  readonly pipelines: Pipelines;
  /** What this request's client sees of a tool, when an extension has a say (`Extension.tool`): absent, the descriptor as registered. */
  readonly toolView?: ToolView;
  /** The elicitation fallback an extension gives one `tools/call` (`Extension.elicitationFallback`); absent when none can. */
  readonly fallbackOf?: FallbackOf;
}

/** The elicitation fallback for a call of `tool` (as `listed` to this client) with `args`, if an extension gives one. */
export type FallbackOf = (tool: ToolDefinition, listed: WireTool, args: JsonObject, ctx: Context) => ElicitationFallback | undefined;

/**
 * What one request's client sees of a tool: `listed` as is, a changed copy, or `undefined` when
 * the tool is hidden from it (unknown to its lists and its calls alike).
 */
export type ToolView = (tool: ToolDefinition, listed: WireTool, ctx: Context) => WireTool | undefined;

/**
 * A method without a target served through its pipeline: the server's guards and interceptors
 * around `perform` (made once, here, not per call).
 */
export function throughPipeline(pipelines: Pipelines, kind: OperationKind, method: Method, perform: MethodHandler): MethodHandler {
  return (params, ctx) => pipelines.method(kind, method).run(params, ctx, perform);
}

/** Reads a required string parameter, or fails with invalid params naming it. */
export function requireString(params: JsonObject, key: string): string {
  const value = params[key];
  if (typeof value !== 'string') throw ProtocolError.invalidParams(`"${key}" must be a string`);
  return value;
}

/**
 * Reads a parameter naming a resource URI: a string no longer than `maxLength`. The one length
 * check for every URI a client sends (reads, subscriptions, completion refs), made before any
 * lookup: a multi-megabyte URI costs the template matcher and every echo of it in an error.
 */
export function requireUri(params: JsonObject, key: string, maxLength: number): string {
  const value = requireString(params, key);
  if (value.length > maxLength) throw ProtocolError.invalidParams(`"${key}" is ${value.length} characters long; this server accepts URIs of up to ${maxLength}`);
  return value;
}

/** Reads an optional object parameter (arguments), or fails with invalid params naming it. */
export function optionalObject(params: JsonObject, key: string): JsonObject {
  const value = params[key];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw ProtocolError.invalidParams(`"${key}" must be an object`);
  return value as JsonObject;
}
