import { ProtocolError } from '../core/errors';
import { SigningKey } from '../core/signing-key';
import { TokenSigner } from '../core/token-signer';

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
  private readonly key: SigningKey;
  private readonly signer: TokenSigner;
  /** A list's cursor for an offset never changes while the key does not: sign each one once. */
  private readonly issued = new Map<string, string>();
  /** The key the cursors in `issued` were signed with. */
  private issuedWith?: Buffer;

  constructor(readonly pageSize = 100, key?: string | Buffer | SigningKey) {
    if (!Number.isInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
    this.key = key instanceof SigningKey ? key : new SigningKey(key);
    // 128-bit signatures: a cursor only addresses a page, and short cursors are cheap to send.
    this.signer = new TokenSigner(this.key, 22);
  }

  page<T>(list: string, items: readonly T[], cursor: unknown): Page<T> {
    const offset = cursor === undefined || cursor === null ? 0 : this.decode(list, cursor);
    const end = offset + this.pageSize;
    const slice = items.slice(offset, end);
    return end < items.length ? { items: slice, nextCursor: this.encode(list, end) } : { items: slice };
  }

  encode(list: string, offset: number): string {
    const plain = `${list}:${offset}`;
    if (this.issuedWith !== this.key.current) {
      this.issued.clear();
      this.issuedWith = this.key.current;
    }
    let cursor = this.issued.get(plain);
    if (cursor === undefined) {
      cursor = this.signer.seal(plain);
      if (this.issued.size >= 10_000) this.issued.clear();
      this.issued.set(plain, cursor);
    }
    return cursor;
  }

  private decode(list: string, cursor: unknown): number {
    if (typeof cursor !== 'string' || cursor.length > 512) throw invalidCursor();
    const plain = this.signer.open(cursor);
    if (plain === undefined) throw invalidCursor();
    const [name, offsetText] = plain.split(':');
    const offset = Number(offsetText);
    if (name !== list || !Number.isSafeInteger(offset) || offset < 0) throw invalidCursor();
    return offset;
  }
}

function invalidCursor(): ProtocolError {
  return ProtocolError.invalidParams('Invalid cursor');
}
