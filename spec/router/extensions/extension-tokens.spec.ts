import { expect } from 'chai';
import { SigningKey } from '../../../lib/core/signing-key';
import { extensionTokens } from '../../../lib/router/extensions/extension-tokens';

describe('extensionTokens', () => {
  const base = new SigningKey('a secret the replicas share');
  let now = 1_000_000;
  const clock = () => now;
  const tokens = extensionTokens(base, 'com.example/forms', 'pending', clock);
  const ann = { sub: 'ann' };

  beforeEach(() => {
    now = 1_000_000;
  });

  it('opens what it sealed, for the same principal, before it expires', () => {
    const token = tokens.seal({ step: 2 }, ann, 1000);
    expect(tokens.open(token, { sub: 'ann' })).to.deep.equal({ ok: true, value: { step: 2 } });
  });

  it('does not open a token of another principal', () => {
    expect(tokens.open(tokens.seal({ step: 2 }, ann, 1000), { sub: 'bob' })).to.deep.equal({ ok: false, reason: 'principal' });
  });

  it('does not open an expired token', () => {
    const token = tokens.seal({ step: 2 }, ann, 1000);
    now += 1001;
    expect(tokens.open(token, ann)).to.deep.equal({ ok: false, reason: 'expired' });
  });

  it('does not open a token of another purpose or extension, nor one edited', () => {
    const token = tokens.seal({ step: 2 }, ann, 1000);
    expect(extensionTokens(base, 'com.example/forms', 'other', clock).open(token, ann)).to.deep.equal({ ok: false, reason: 'invalid' });
    expect(extensionTokens(base, 'com.example/other', 'pending', clock).open(token, ann)).to.deep.equal({ ok: false, reason: 'invalid' });
    const [body, signature] = token.split('.');
    const edited = Buffer.from(Buffer.from(body, 'base64url').toString().replace('"step":2', '"step":3')).toString('base64url');
    expect(tokens.open(`${edited}.${signature}`, ann)).to.deep.equal({ ok: false, reason: 'invalid' });
    expect(tokens.open(42, ann)).to.deep.equal({ ok: false, reason: 'invalid' });
  });

  it('follows its base key when the server replaces it (the replicas\' shared secret arrives)', () => {
    const key = new SigningKey('random at first');
    const replica = extensionTokens(key, 'com.example/forms', 'pending', clock);
    const token = extensionTokens(new SigningKey('shared'), 'com.example/forms', 'pending', clock).seal({ step: 1 }, ann, 1000);
    expect(replica.open(token, ann).ok).to.equal(false);
    key.replace(Buffer.from('shared'));
    expect(replica.open(token, ann)).to.deep.equal({ ok: true, value: { step: 1 } });
  });
});
