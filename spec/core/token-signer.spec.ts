import { expect } from 'chai';
import { TokenSigner } from '../../lib/core/token-signer';

describe('TokenSigner', () => {
  describe('#open', () => {
    it('gives back the text of a token it sealed, whatever the characters', () => {
      const signer = new TokenSigner('k');
      for (const text of ['tools:100', '{"m":"tools/call","r":{}}', 'é ☃ \u0000']) expect(signer.open(signer.seal(text))).to.equal(text);
    });

    it('refuses a token whose body was edited', () => {
      const signer = new TokenSigner('k');
      const [, signature] = signer.seal('tools:100').split('.');
      expect(signer.open(`${Buffer.from('tools:0').toString('base64url')}.${signature}`)).to.equal(undefined);
    });

    it('refuses a token whose signature was edited or cut', () => {
      const signer = new TokenSigner('k');
      const token = signer.seal('tools:100');
      const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
      expect(signer.open(flipped)).to.equal(undefined);
      expect(signer.open(token.slice(0, -1))).to.equal(undefined);
    });

    it('refuses a token sealed under another key', () => {
      expect(new TokenSigner('a').open(new TokenSigner('b').seal('x'))).to.equal(undefined);
    });

    it('accepts the tokens of another signer with the same key (another replica)', () => {
      expect(new TokenSigner('shared').open(new TokenSigner('shared').seal('x'))).to.equal('x');
    });

    it('refuses what is not a token at all', () => {
      const signer = new TokenSigner();
      for (const value of [undefined, null, 42, {}, '', '.', 'a.b.c', 'abc']) expect(signer.open(value)).to.equal(undefined);
    });
  });

  describe('#seal', () => {
    context('when a signature length is given', () => {
      it('keeps that many characters of the signature', () => {
        const [, signature] = new TokenSigner('k', 22).seal('x').split('.');
        expect(signature).to.have.length(22);
      });
    });

    context('without a key', () => {
      it('signs with a random key per signer', () => {
        expect(new TokenSigner().seal('x')).not.to.equal(new TokenSigner().seal('x'));
      });
    });
  });
});
