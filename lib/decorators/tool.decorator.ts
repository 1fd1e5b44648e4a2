import { METADATA_KEYS } from '../metadata/metadata-keys';
import type { Constructor } from '../metadata/metadata-store';
import type { CallToolResult } from '../core/wire.types';
import { recordingDecorator, type MemberDecorator } from './member-decorator';
import type { ToolOptions } from '../metadata/tool-options';

export type { ToolOptions };

/** What a method of a tool with `output: Dto` may return: the DTO's shape, or a result such as `ToolResult.error(...)`. */
export type ToolReturn<O> = O | CallToolResult | Promise<O | CallToolResult>;

/**
 * `@Tool({ output: Dto })`: a method decorator that only accepts methods whose return type fits
 * the DTO, so a handler that returns another shape is a compile error rather than a failed call.
 *
 * @typeParam O - the output DTO's instance type.
 * @typeParam M - the decorated method's type, inferred; it must return a {@link ToolReturn} of `O`.
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
