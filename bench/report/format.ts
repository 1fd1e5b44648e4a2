/** Requests per second: grouped thousands, one decimal below 100. */
export function rate(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
}

/** Milliseconds; whole ones as measured (autocannon's latencies are whole), others to 0.1 below 100. */
export function millis(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  if (Number.isInteger(value) || value >= 100) return `${Math.round(value).toLocaleString('en-US')} ms`;
  return `${value.toFixed(1)} ms`;
}

export function bytes(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return Math.abs(value) < 10_000 ? `${Math.round(value).toLocaleString('en-US')} B` : `${(value / 1024).toFixed(1)} KB`;
}

/** A ratio as `0.52×`, `12×`; `–` when it could not be computed. */
export function times(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return `${value < 10 ? value.toFixed(2) : value.toFixed(0)}×`;
}

/** 10, 1k, 10k. */
export function count(value: number): string {
  return value >= 1000 && value % 1000 === 0 ? `${value / 1000}k` : String(value);
}

/** The first line of an error message, for a table cell. */
export function firstLine(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 140 ? `${line.slice(0, 140)}…` : line;
}

/** Microseconds, whole: `95 µs`. */
export function micros(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return `${Math.round(value).toLocaleString('en-US')} µs`;
}

/** A share as a whole percentage: `0.72` is `72%`. */
export function percent(value: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return '–';
  return `${Math.round(value * 100)}%`;
}
