import { ProtocolError } from '../../core/errors';

/** A cursor longer than this is not one this server wrote. */
const MAX_CURSOR_LENGTH = 4096;

/**
 * Keyset cursors: a page's cursor holds the key (a URI) of the last item it gave, so the next page
 * starts after it even when the catalog changed between the two requests (no entry is given twice
 * and none is skipped that was there on both). Opaque to the client (base64url); one from another
 * list (`kind`), or not one at all, is invalid params (-32602).
 */
export const SkillCursor = Object.freeze({
  encode(kind: string, lastKey: string): string {
    return Buffer.from(JSON.stringify([kind, lastKey]), 'utf8').toString('base64url');
  },

  /** The key after which the page starts; `undefined` for the first page (no cursor). */
  decode(kind: string, cursor: unknown): string | undefined {
    if (cursor === undefined || cursor === null) return undefined;
    if (typeof cursor !== 'string' || cursor.length > MAX_CURSOR_LENGTH) throw invalidCursor();
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
    if (!Array.isArray(value) || value.length !== 2 || value[0] !== kind || typeof value[1] !== 'string') throw invalidCursor();
    return value[1];
  },
});

function invalidCursor(): ProtocolError {
  return ProtocolError.invalidParams('Invalid cursor');
}

/** One page of `items` (sorted by `keyOf`) after `after`, at most `size` long, with the cursor to the next when there is more. */
export function pageAfter<T>(items: readonly T[], keyOf: (item: T) => string, after: string | undefined, size: number, kind: string): { items: T[]; nextCursor?: string } {
  const start = after === undefined ? 0 : firstAfter(items, keyOf, after);
  const page = items.slice(start, start + size);
  return start + size < items.length ? { items: page, nextCursor: SkillCursor.encode(kind, keyOf(page[page.length - 1])) } : { items: page };
}

function firstAfter<T>(items: readonly T[], keyOf: (item: T) => string, after: string): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (keyOf(items[middle]) <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
