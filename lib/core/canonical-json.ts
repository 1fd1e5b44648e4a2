import { ProtocolError } from './errors';

/**
 * Deeper than this, a value is refused rather than walked. Messages are already bounded by
 * `maxJsonDepth` when they are classified; this guards what comes from elsewhere (a principal from
 * the authentication hook, an in-process caller) without refusing anything a message may carry.
 */
const MAX_DEPTH = 1000;

/**
 * JSON with the keys of every object sorted, so two equal values read the same whatever order
 * their keys came in. Principals are compared in this form, and `requestState` digests it.
 * Values nested deeper than 1,000 levels are refused with invalid params naming `subject`.
 */
export function canonicalJson(value: unknown, subject = 'value'): string {
  return canonical(value, 0, subject);
}

function canonical(value: unknown, depth: number, subject: string): string {
  if (depth > MAX_DEPTH) throw ProtocolError.invalidParams(`${subject} nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, depth + 1, subject)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1, subject)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
