import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { Constructor } from '../metadata/metadata-store';
import type { CallToolResult, Icon, JsonObject, Meta } from '../protocol/wire.types';
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
   * a DTO. It is compiled once at start-up (JSON Schema 2020-12 unless its `$schema` names 2019-09
   * or draft-07; an invalid schema is a start-up error) and every call's arguments must conform;
   * the handler receives them as sent, a plain object. `format` is not checked (an annotation in
   * 2020-12).
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
  /**
   * A DTO describing `structuredContent`; advertised as `outputSchema`. Every result is checked
   * against it (its class-validator rules and the advertised schema, `additionalProperties: false`
   * included) before it is sent: a mismatch, or a result with no structured content, becomes an
   * `isError` result naming the properties, the detail going to diagnostics. With `output`, the
   * method's return type must be assignable to the DTO (or be a `CallToolResult`, for errors).
   */
  readonly output?: Constructor;
}

/** What a method of a tool with `output: Dto` may return: the DTO's shape, or a result such as `ToolResult.error(...)`. */
export type ToolReturn<O> = O | CallToolResult | Promise<O | CallToolResult>;

/**
 * `@Tool({ output: Dto })`: a method decorator that only accepts methods whose return type fits
 * the DTO, so a handler that returns another shape is a compile error rather than a failed call.
 */
export type OutputToolDecorator<O> = <M extends (...args: never[]) => ToolReturn<O>>(
  target: object,
  propertyKey: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void;

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
 *
 *   @Tool({ description: 'Current weather', output: Weather })
 *   current(args: CityArgs): Weather {                // must return a Weather (checked by tsc, then at run time)
 *     return { temperature: 21, unit: 'C' };
 *   }
 * }
 */
export function Tool<O>(options: ToolOptions & { readonly output: Constructor<O> }): OutputToolDecorator<O>;
export function Tool(options?: ToolOptions): MemberDecorator;
export function Tool(options: ToolOptions = {}): MemberDecorator {
  return recordingDecorator(METADATA_KEYS.tools, '@Tool', options);
}
