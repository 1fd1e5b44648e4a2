import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ProtocolError } from '../core/errors';

/** A page of a list and the cursor to the next one, if any. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string;
}

/**
 * Opaque, tamper-evident cursors: the list's name and an offset, signed with a server key. A
 * cursor from another list, another server or an edited one is invalid params (-32602).
 */
export class Paginator {
  private readonly key: Buffer;
  /** A list's cursor for an offset never changes: sign each one once. */
  private readonly issued = new Map<string, string>();

  constructor(readonly pageSize = 100, key?: string | Buffer) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
    this.key = key === undefined ? randomBytes(32) : Buffer.from(key);
  }

  page<T>(list: string, items: readonly T[], cursor: unknown): Page<T> {
    const offset = cursor === undefined || cursor === null ? 0 : this.decode(list, cursor);
    const end = offset + this.pageSize;
    const slice = items.slice(offset, end);
    return end < items.length ? { items: slice, nextCursor: this.encode(list, end) } : { items: slice };
  }

  encode(list: string, offset: number): string {
    const plain = `${list}:${offset}`;
    let cursor = this.issued.get(plain);
    if (cursor === undefined) {
      const body = Buffer.from(plain).toString('base64url');
      cursor = `${body}.${this.sign(body)}`;
      if (this.issued.size >= 10_000) this.issued.clear();
      this.issued.set(plain, cursor);
    }
    return cursor;
  }

  private decode(list: string, cursor: unknown): number {
    if (typeof cursor !== 'string' || cursor.length > 512) throw invalidCursor();
    const [body, signature, extra] = cursor.split('.');
    if (extra !== undefined || !body || !signature || !this.verify(body, signature)) throw invalidCursor();
    const [name, offsetText] = Buffer.from(body, 'base64url').toString().split(':');
    const offset = Number(offsetText);
    if (name !== list || !Number.isSafeInteger(offset) || offset < 0) throw invalidCursor();
    return offset;
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url').slice(0, 22);
  }

  private verify(body: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(body));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}

function invalidCursor(): ProtocolError {
  return ProtocolError.invalidParams('Invalid cursor');
}
