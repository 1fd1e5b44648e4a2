/**
 * `phantom-mcp/otel`: OpenTelemetry traces and metrics for every operation, as an interceptor.
 * It takes the tracer and meter providers you configure (the optional peer dependency
 * `@opentelemetry/api` shapes them); the framework starts no SDK of its own.
 *
 * @example
 * import { TelemetryInterceptor } from 'phantom-mcp/otel';
 *
 * @module phantom-mcp/otel
 */
export { TelemetryInterceptor, type TelemetryOptions, type TracerProviderLike, type MeterProviderLike } from '../router/pipeline/built-ins/telemetry.interceptor';
