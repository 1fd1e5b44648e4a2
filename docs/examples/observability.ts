// Observability: logs to the client (ctx.log), one line per call (RequestLoggingInterceptor),
// the framework's own diagnostics, and OpenTelemetry traces and metrics.
// Included in docs/guide/observability.md; run by spec/docs/examples/observability.spec.ts.
import 'reflect-metadata';
// #region client-logs
import { IsString, MaxLength } from 'class-validator';
import { Context, Field, Tool } from 'phantom-mcp';

export class CityArgs {
  @Field({ description: 'City name' }) @IsString() @MaxLength(100) city!: string;
}

export class WeatherTools {
  @Tool({ description: 'Forecast for a city', readOnly: true })
  async forecast(args: CityArgs, ctx: Context) {
    await ctx.log.info(`Looking up ${args.city}`, 'weather'); // sent to the client if its level lets it through
    await ctx.log.debug({ cache: 'miss', city: args.city }, 'weather');
    if (args.city === 'Atlantis') throw new Error('no station reports from Atlantis'); // a bug, not a ToolError
    return { city: args.city, sky: 'clear' };
  }
}
// #endregion client-logs

// #region diagnostics
import { PhantomServer, RequestLoggingInterceptor, type Diagnostics, type RequestLogEntry } from 'phantom-mcp';

/** Where the framework reports its own trouble: here, a JSON logger of the application's. */
export function jsonDiagnostics(write: (line: string) => void): Diagnostics {
  return {
    error: (message, error) => write(JSON.stringify({ level: 'error', message, error: String(error ?? '') })),
    warn: (message) => write(JSON.stringify({ level: 'warn', message })),
    info: (message) => write(JSON.stringify({ level: 'info', message })),
  };
}

export function createLoggedServer(write: (line: string) => void, onCall: (entry: RequestLogEntry) => void): PhantomServer {
  const server = new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools], diagnostics: jsonDiagnostics(write) });
  server.use(new RequestLoggingInterceptor(onCall)); // one entry per call: method, target, duration, outcome
  return server;
}
// #endregion diagnostics

// #region telemetry
import type { TelemetryOptions } from 'phantom-mcp/otel';

/** `telemetry: true` uses the global providers the application's OpenTelemetry SDK registered. */
export function createTracedServer(telemetry: true | TelemetryOptions = true): PhantomServer {
  return new PhantomServer({ name: 'weather', version: '1.0.0', providers: [WeatherTools], telemetry });
}
// #endregion telemetry

// #region sdk
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { MeterProvider, type MetricReader } from '@opentelemetry/sdk-metrics';

/** Providers of the OpenTelemetry SDK, given to the server rather than registered globally. */
export function telemetryTo(spans: SpanExporter, metrics: MetricReader) {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(spans)] });
  const meterProvider = new MeterProvider({ readers: [metrics] });
  return { tracerProvider, meterProvider } satisfies TelemetryOptions;
}
// #endregion sdk
