import { expect } from 'chai';
import { TokenSigner } from '../../lib/core/token-signer';
import { SigningKeys } from '../../lib/server/signing-keys';

const SECRET = Buffer.from('what the replicas share');

/** Whether a token `from` signs opens with `to`. */
const opens = (from: SigningKeys['cursor'], to: SigningKeys['cursor']) => new TokenSigner(to).open(new TokenSigner(from).seal('token')) === 'token';

describe('SigningKeys', () => {
  describe('#share', () => {
    context('when the options set no key', () => {
      it('gives two servers that share a secret the same cursor key and the same requestState key', () => {
        const [a, b] = [new SigningKeys({}), new SigningKeys({})];
        expect(opens(a.cursor, b.cursor), 'random keys before').to.equal(false);
        a.share(SECRET);
        b.share(SECRET);
        expect(opens(a.cursor, b.cursor)).to.equal(true);
        expect(opens(a.requestState, b.requestState)).to.equal(true);
      });

      it('derives a key per purpose: a cursor never opens as a requestState', () => {
        const keys = new SigningKeys({});
        keys.share(SECRET);
        expect(opens(keys.cursor, keys.requestState)).to.equal(false);
      });
    });

    context('when the options set cursorKey and stateKey', () => {
      it('keeps them', () => {
        const keys = new SigningKeys({ cursorKey: 'cursors', stateKey: 'states' });
        keys.share(SECRET);
        expect(opens(keys.cursor, new SigningKeys({ cursorKey: 'cursors' }).cursor)).to.equal(true);
        expect(opens(keys.requestState, new SigningKeys({ stateKey: 'states' }).requestState)).to.equal(true);
      });
    });
  });
});
