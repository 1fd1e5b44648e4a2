import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { Constructor } from '../metadata/metadata-store';
import type { Icon, JsonObject, Meta } from '../protocol/wire.types';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
import type { CacheHint } from './cache-hint';

/** Options of `@Tool`, kept exactly as written; the scanner normalises them. */
export interface ToolOptions {
  /** Defaults to the method name; must match `^[A-Za-z0-9_.-]{1,64}$`. */
  readonly name?: string;
  readonly title?: string;
  /** Required: clients (and the conformance suite) reject tools without one. */
  readonly description?: string;
  /** The tool does not modify its environment (`readOnlyHint`). */
  readonly readOnly?: boolean;
  /** The tool may destroy data (`destructiveHint`). */
  readonly destructive?: boolean;
  /** Calling twice with the same arguments has no further effect (`idempotentHint`). */
  readonly idempotent?: boolean;
  /** The tool reaches an open world of external entities (`openWorldHint`). */
  readonly openWorld?: boolean;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
  /** The argument DTO, when the method's first parameter type cannot say (an interface, say). */
  readonly input?: Constructor;
  /**
   * A hand-written JSON Schema for the arguments, advertised verbatim instead of one compiled from
   * a DTO. The handler then receives the arguments as a plain object, unvalidated: prefer a DTO.
   */
  readonly inputSchema?: JsonObject;
  /**
   * Client capabilities the tool cannot work without (`'sampling'`, `'elicitation'`, `'roots'`).
   * A call from a client that lacks one is refused before the handler runs: -32021 in the
   * stateless era, an error result in the session era.
   */
  readonly requires?: readonly ('sampling' | 'elicitation' | 'roots')[];
  /** Caching hint for lists that include this tool (stateless era). */
  readonly cache?: CacheHint;
  /** A DTO describing `structuredContent`; advertised as `outputSchema`. */
  readonly output?: Constructor;
}

/**
 * Exposes a method as an MCP tool. The argument DTO is the method's first parameter type; the
 * handler receives a validated instance of it, and its `Context` as the last parameter.
 *
 * @example
 * class WeatherTools {
 *   @Tool({ description: 'Forecast for a city', readOnly: true })
 *   forecast(args: ForecastArgs, ctx: Context) {
 *     return { city: args.city, days: args.days };   // -> structuredContent + JSON text
 *   }
 * }
 */
export function Tool(options: ToolOptions = {}): MemberDecorator {
  return recordingDecorator(METADATA_KEYS.tools, '@Tool', options);
}
