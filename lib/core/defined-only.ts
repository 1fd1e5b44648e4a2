/** Copies only the keys that are set, so what goes on the wire carries no `undefined`. */
export function definedOnly<T extends object>(value: T): T {
  // A loop rather than entries/filter/fromEntries: called twice per tool at start-up, it made
  // 1.2 MB of the 13.6 MB a 1,000-tool build allocates.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined) continue;
    // An own `__proto__` key (JSON.parse makes one) stays a key, as fromEntries kept it, not a prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return out as T;
}
