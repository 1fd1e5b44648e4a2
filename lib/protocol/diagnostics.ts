/**
 * Where the framework reports its own trouble (a handler that threw, a lister that failed). It goes
 * to stderr by default: stdout may be the stdio transport's wire.
 */
export interface Diagnostics {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
}

export const STDERR_DIAGNOSTICS: Diagnostics = Object.freeze({
  error: (message: string, error?: unknown) => {
    process.stderr.write(`[phantom-mcp] ${message}${error === undefined ? '' : `: ${formatError(error)}`}\n`);
  },
  warn: (message: string) => {
    process.stderr.write(`[phantom-mcp] ${message}\n`);
  },
});

export const SILENT_DIAGNOSTICS: Diagnostics = Object.freeze({ error: () => {}, warn: () => {} });

function formatError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}
