/** Copies only the keys that are set, so what goes on the wire carries no `undefined`. */
export function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
