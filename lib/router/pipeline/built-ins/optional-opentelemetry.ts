import type * as OpenTelemetryApi from '@opentelemetry/api';

/** The `@opentelemetry/api` module, as the application installed it. */
export type OpenTelemetry = typeof OpenTelemetryApi;

const NOT_INSTALLED = null;
let loaded: OpenTelemetry | typeof NOT_INSTALLED | undefined;

/**
 * `@opentelemetry/api` when the application has it, else `undefined`. It is an optional peer
 * dependency: required on first use, never when phantom-mcp is imported, so the framework loads
 * and serves without it (and without it there can be no SDK either, so there is nothing to send
 * telemetry to). The module is a process-wide singleton by design (its globals hold the SDK the
 * application registered), so one lookup serves every server.
 */
export function optionalOpenTelemetry(): OpenTelemetry | undefined {
  if (loaded === undefined) {
    try {
      // A CommonJS require on purpose: a static import would make the package mandatory.
      loaded = require('@opentelemetry/api') as OpenTelemetry;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== 'MODULE_NOT_FOUND') throw error;
      loaded = NOT_INSTALLED;
    }
  }
  return loaded ?? undefined;
}
