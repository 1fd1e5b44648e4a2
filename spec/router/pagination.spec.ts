import { expect } from 'chai';
import { ErrorCode, ProtocolError } from '../../lib';
import { SigningKey } from '../../lib/core/signing-key';
import { Paginator } from '../../lib/router/pagination';

describe('Paginator', () => {
  const items = Array.from({ length: 25 }, (_, i) => i);

  describe('#page', () => {
    it('walks the whole list page by page', () => {
      const paginator = new Paginator(10);
      const seen: number[] = [];
      let cursor: string | undefined;
      do {
        const page = paginator.page('tools', items, cursor);
        seen.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).to.deep.equal(items);
    });

    it('gives no cursor on the last page', () => {
      expect(new Paginator(30).page('tools', items, undefined)).to.deep.equal({ items });
    });

    context('when the cursor is not one it issued', () => {
      const paginator = new Paginator(10);
      const good = paginator.page('tools', items, undefined).nextCursor!;
      const cases: Record<string, unknown> = {
        'an edited cursor': good.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
        'a cursor for another list': paginator.encode('prompts', 10),
        'a cursor from another server': new Paginator(10).encode('tools', 10),
        'a number': 10,
        'garbage': 'not-a-cursor',
        'an empty string': '',
        'a huge string': 'x'.repeat(10_000),
      };
      for (const [name, cursor] of Object.entries(cases)) {
        it(`rejects ${name} with invalid params`, () => {
          expect(() => paginator.page('tools', items, cursor)).to.throw(ProtocolError).with.property('code', ErrorCode.InvalidParams);
        });
      }
    });

    it('accepts cursors from another paginator sharing its key', () => {
      const cursor = new Paginator(10, 'shared').encode('tools', 20);
      expect(new Paginator(10, 'shared').page('tools', items, cursor).items).to.deep.equal([20, 21, 22, 23, 24]);
    });

    context('when its SigningKey is replaced (a replica taking the key the replicas share)', () => {
      it('signs its cursors with the new key, none from before, and takes those of the others', () => {
        const key = new SigningKey('its own');
        const paginator = new Paginator(10, key);
        const before = paginator.page('tools', items, undefined).nextCursor!;
        key.replace(Buffer.from('shared'));
        const after = paginator.page('tools', items, undefined).nextCursor!;
        expect(after).not.to.equal(before);
        expect(new Paginator(10, 'shared').page('tools', items, after).items).to.deep.equal([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
        expect(paginator.page('tools', items, new Paginator(10, 'shared').encode('tools', 20)).items).to.deep.equal([20, 21, 22, 23, 24]);
      });
    });
  });
});
