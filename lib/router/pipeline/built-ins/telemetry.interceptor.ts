import type { Context as OtelContext, Histogram, Meter, MeterProvider, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import type { Context } from '../../../context/context';
import type { ExecutionContext } from '../execution-context';
import type { CallHandler, Interceptor } from '../interceptor';
import { outcomeOfFailure, outcomeOfValue, type OperationOutcome } from './operation-outcome';
import { optionalOpenTelemetry, type OpenTelemetry } from './optional-opentelemetry';
import { DURATION_METRIC, operationAttributes, outcomeAttributes, requestAttributes, spanNameOf } from './telemetry-attributes';

/** An OpenTelemetry `TracerProvider` (typed by shape, so phantom-mcp's types do not need `@opentelemetry/api`). */
export interface TracerProviderLike {
  /** The tracer of the instrumentation scope `name` (the interceptor asks for `TelemetryOptions.name`). */
  getTracer(name: string, version?: string): unknown;
}

/** An OpenTelemetry `MeterProvider` (typed by shape, as above). */
export interface MeterProviderLike {
  /** The meter of the instrumentation scope `name` (the interceptor asks for `TelemetryOptions.name`). */
  getMeter(name: string, version?: string): unknown;
}

/** Options of `TelemetryInterceptor`; every one has a default. */
export interface TelemetryOptions {
  /** Where spans go (default: the global one, i.e. the SDK the application registered; none means no spans). */
  readonly tracerProvider?: TracerProviderLike;
  /** Where metrics go (default: the global one, looked up on each call, so an SDK registered later is used). */
  readonly meterProvider?: MeterProviderLike;
  /** The instrumentation scope's name (default `phantom-mcp`). */
  readonly name?: string;
  /** Record a tool's arguments on its span as `gen_ai.tool.call.arguments` (default false: they may hold secrets). */
  readonly recordArguments?: boolean;
  /** Record the principal's `subject` (or `sub`) on spans as `enduser.id` (default true; it is personal data). */
  readonly recordSubject?: boolean;
}

const DEFAULT_NAME = 'phantom-mcp';

/** W3C trace context in `params._meta` (MCP's convention): its string values, nothing else. */
const META_GETTER = Object.freeze({
  keys: (carrier: Readonly<Record<string, unknown>>) => Object.keys(carrier),
  get: (carrier: Readonly<Record<string, unknown>>, key: string) => {
    const value = Object.hasOwn(carrier, key) ? carrier[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
});

/**
 * A built-in interceptor: OpenTelemetry traces and metrics for every operation it wraps, through
 * `@opentelemetry/api`, an optional peer dependency. Nothing is recorded unless an SDK is there:
 * with the API alone its no-op providers answer, and without the API installed at all this
 * interceptor only calls `next`.
 *
 * - A `SERVER` span per operation, named `tools/call notes_write`, `prompts/get plan` or by the
 *   method alone (`resources/read`, `tools/list`), with the attributes of the MCP semantic
 *   conventions (`mcp.method.name`, `mcp.session.id`, `mcp.protocol.version`, `gen_ai.tool.name`,
 *   `mcp.resource.uri`, `jsonrpc.request.id`, `error.type`, `rpc.response.status_code`),
 *   `enduser.id` for the principal's subject, `phantom_mcp.era` and `phantom_mcp.outcome`
 *   (`result`, `tool_error`, `protocol_error`, `input_required`). Its status is `ERROR` for a
 *   tool error and a protocol error (with the JSON-RPC message). Its parent is the W3C
 *   `traceparent` the client put in the request's `_meta` (read through the application's
 *   propagator), else the active context; the handler runs with the span active.
 * - The histogram `mcp.server.operation.duration` (seconds) per method, tool or prompt name,
 *   era, version and outcome; its count is the number of calls.
 *
 * It sees what interceptors see: calls that passed the guards and the argument pipes (an unknown
 * tool, a guard's refusal or invalid arguments end before it). Register it first, so its span
 * covers the other interceptors.
 *
 * @example
 * server.use(new TelemetryInterceptor());                        // the global providers
 * server.use(new TelemetryInterceptor({ tracerProvider, meterProvider, recordArguments: true }));
 */
export class TelemetryInterceptor implements Interceptor {
  private readonly otel: OpenTelemetry | undefined;
  private readonly name: string;
  private readonly tracer: Tracer | undefined;
  private readonly fixedMeterProvider: MeterProvider | undefined;
  private meterSource: MeterProvider | undefined;
  private duration: Histogram | undefined;
  private readonly recording: { readonly recordArguments: boolean; readonly recordSubject: boolean };

  constructor(options: TelemetryOptions = {}) {
    this.otel = optionalOpenTelemetry();
    this.name = options.name ?? DEFAULT_NAME;
    this.recording = { recordArguments: options.recordArguments ?? false, recordSubject: options.recordSubject ?? true };
    this.fixedMeterProvider = options.meterProvider as MeterProvider | undefined;
    // The global tracer provider is a proxy that follows the SDK registered later, so one lookup is enough.
    this.tracer = this.otel && ((options.tracerProvider as TracerProvider | undefined) ?? this.otel.trace.getTracerProvider()).getTracer(this.name);
  }

  /** Runs the call inside its span and records its duration; the result or error passes unchanged. */
  async intercept(call: ExecutionContext, next: CallHandler): Promise<unknown> {
    const { otel, tracer } = this;
    if (!otel || !tracer) return next();
    const started = performance.now();
    const active = otel.context.active();
    const parent = parentOf(otel, active, call.context);
    const ambient = otel.trace.getSpanContext(active);
    const span = tracer.startSpan(spanNameOf(call), {
      kind: otel.SpanKind.SERVER,
      attributes: requestAttributes(call, this.recording),
      // The conventions: the client's context is the parent, the ambient one (the HTTP request's) a link.
      links: ambient && ambient !== otel.trace.getSpanContext(parent) ? [{ context: ambient }] : undefined,
    }, parent);
    let value: unknown;
    try {
      value = await otel.context.with(otel.trace.setSpan(parent, span), next);
    } catch (error) {
      this.finish(otel, span, call, outcomeOfFailure(call, error), started);
      throw error;
    }
    this.finish(otel, span, call, outcomeOfValue(call, value), started);
    return value;
  }

  private finish(otel: OpenTelemetry, span: Span, call: ExecutionContext, outcome: OperationOutcome, started: number): void {
    const outcomeAttrs = outcomeAttributes(outcome);
    if (span.isRecording()) {
      span.setAttributes(outcomeAttrs);
      if (outcome.kind === 'protocol_error') span.setStatus({ code: otel.SpanStatusCode.ERROR, message: outcome.message });
      if (outcome.kind === 'tool_error') span.setStatus({ code: otel.SpanStatusCode.ERROR });
      if ((outcome.kind === 'protocol_error' || outcome.kind === 'tool_error') && outcome.unexpected instanceof Error) span.recordException(outcome.unexpected);
    }
    span.end();
    this.durationHistogram(otel).record((performance.now() - started) / 1000, { ...operationAttributes(call), ...outcomeAttrs });
  }

  /** The histogram of the meter provider in use; made again when the global provider changes. */
  private durationHistogram(otel: OpenTelemetry): Histogram {
    const provider = this.fixedMeterProvider ?? otel.metrics.getMeterProvider();
    if (provider !== this.meterSource || !this.duration) {
      const meter: Meter = provider.getMeter(this.name);
      this.duration = meter.createHistogram(DURATION_METRIC.name, {
        unit: DURATION_METRIC.unit,
        description: DURATION_METRIC.description,
        advice: { explicitBucketBoundaries: [...DURATION_METRIC.buckets] },
      });
      this.meterSource = provider;
    }
    return this.duration;
  }
}

/** The context the client sent in `_meta` (read by the application's propagator; none: the active one). */
function parentOf(otel: OpenTelemetry, active: OtelContext, context: Context): OtelContext {
  return context.meta === undefined ? active : otel.propagation.extract(active, context.meta, META_GETTER);
}
