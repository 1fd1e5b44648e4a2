/**
 * Where the decorators' records live: for each decorated object (a class or a prototype), the
 * value under each of the framework's keys, for the object itself or for one of its members.
 *
 * A WeakMap rather than reflect-metadata: the decorators write two records per tool and the
 * scanner reads several, and reflect-metadata's lookups (a provider registry, then a map per
 * object and per member) cost several times a map's, which made them a large part of starting a
 * server with many tools. TypeScript's own `design:*` metadata stays in reflect-metadata.
 *
 * One store per process, kept in the global symbol registry: another copy of phantom-mcp in the
 * process (the CLI's own beside the one a served module imports) must see the same records, as
 * every copy saw the same reflect-metadata before. Its shape is therefore part of the contract
 * between versions: object -> Map<slot, value>, the slot `key` or `key \u0000 member`.
 */
const STORE = Symbol.for('phantom-mcp.decorator-records');

type Store = WeakMap<object, Map<string, unknown>>;

const store: Store = ((globalThis as { [STORE]?: Store })[STORE] ??= new WeakMap());

/** Keys are the constants of `METADATA_KEYS`, none of which holds `\u0000`, so a slot names one key and member. */
function slotOf(key: string, member: string | undefined): string {
  return member === undefined ? key : `${key}\u0000${member}`;
}

/** What `target` itself records under `key` (for `member`, if given); its prototypes are not asked. */
export function ownRecord<T>(target: object, key: string, member?: string): T | undefined {
  return store.get(target)?.get(slotOf(key, member)) as T | undefined;
}

export function writeRecord(target: object, key: string, value: unknown, member?: string): void {
  let records = store.get(target);
  if (records === undefined) {
    records = new Map();
    store.set(target, records);
  }
  records.set(slotOf(key, member), value);
}

/** What `target` records under `key`, else what the nearest object of its prototype chain does (reflect-metadata's `getMetadata`). */
export function nearestRecord<T>(target: object, key: string, member?: string): T | undefined {
  const slot = slotOf(key, member);
  for (let current: object | null = target; current !== null; current = Object.getPrototypeOf(current)) {
    const records = store.get(current);
    if (records?.has(slot)) return records.get(slot) as T;
  }
  return undefined;
}
