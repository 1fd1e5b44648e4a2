import { expect } from 'chai';
import { isPlainData, samePrincipal } from '../../lib/protocol/principal';

/** Two tokens of one subject: what changes when a token is refreshed (expiry, id, scopes) is not who it speaks for. */
const tokenOf = (subject: string, jti: string, scopes: string[], issuer = 'https://as.example.com') => ({
  subject, scopes, issuer, audience: ['https://mcp.example.com/mcp'], expiresAt: 1_900_000_000 + jti.length, claims: { sub: subject, jti },
});

describe('principal', () => {
  describe('isPlainData', () => {
    context('when the value is JSON-like data', () => {
      it('accepts it', () => {
        for (const value of [null, undefined, 'ada', 0, true, [], {}, { sub: 'ada', roles: ['dev'], org: { id: 7 } }, Object.create(null)]) {
          expect(isPlainData(value), JSON.stringify(value)).to.equal(true);
        }
      });
    });

    context('when the value would serialise to less than it says (two users would look alike)', () => {
      it('refuses class instances, Maps, Sets, Dates, functions, symbols and bigints, at any depth', () => {
        class User { #name = 'ada'; get name() { return this.#name; } }
        for (const value of [new User(), new Map([['sub', 'ada']]), new Set(['ada']), new Date(0), () => 'ada', Symbol('ada'), 1n, { user: new User() }, [new Map()]]) {
          expect(isPlainData(value)).to.equal(false);
        }
      });

      it('refuses numbers JSON cannot carry', () => {
        for (const value of [NaN, Infinity, { n: -Infinity }]) expect(isPlainData(value)).to.equal(false);
      });
    });

    context('when the value nests deeper than 32 levels', () => {
      it('refuses it (fail closed)', () => {
        let deep: unknown = 'x';
        for (let i = 0; i < 32; i += 1) deep = [deep];
        expect(isPlainData(deep)).to.equal(true);
        expect(isPlainData([deep])).to.equal(false);
      });
    });
  });

  describe('samePrincipal', () => {
    context('when both are AuthInfo', () => {
      const info = (claims: Record<string, unknown>, subject: string, extra: Record<string, unknown> = {}) => ({
        subject, issuer: 'https://as.example', scopes: [] as string[], audience: ['https://mcp.example'], claims, ...extra,
      });

      it('takes a refreshed token of the same subject for the same principal', () => {
        expect(samePrincipal(info({ sub: 'ada', jti: '1' }, 'ada', { expiresAt: 1 }), info({ sub: 'ada', jti: '2' }, 'ada', { expiresAt: 2, scopes: ['x'] }))).to.equal(true);
      });

      it('keeps another subject, another issuer, and a client named like a user apart', () => {
        const ada = info({ sub: 'ada' }, 'ada');
        expect(samePrincipal(ada, info({ sub: 'bob' }, 'bob'))).to.equal(false);
        expect(samePrincipal(ada, info({ sub: 'ada' }, 'ada', { issuer: 'https://other.example' }))).to.equal(false);
        expect(samePrincipal(ada, info({ client_id: 'ada' }, 'ada', { clientId: 'ada' }))).to.equal(false);
      });
    });

    context('when the principals are equal data', () => {
      it('says they are the same, whatever the order of their keys', () => {
        expect(samePrincipal({ sub: 'ada', org: { id: 7, name: 'x' } }, { org: { name: 'x', id: 7 }, sub: 'ada' })).to.equal(true);
      });
    });

    context('when they differ', () => {
      it('says they are not', () => {
        expect(samePrincipal({ sub: 'ada' }, { sub: 'eve' })).to.equal(false);
        expect(samePrincipal({ sub: 'ada' }, undefined)).to.equal(false);
        expect(samePrincipal(undefined, { sub: 'eve' })).to.equal(false);
        expect(samePrincipal({ roles: ['a', 'b'] }, { roles: ['b', 'a'] })).to.equal(false);
      });
    });

    context('when both are AuthInfos of one issuer and subject (a refreshed token)', () => {
      it('says they are the same, whatever their expiry, token id, scopes and claims', () => {
        expect(samePrincipal(tokenOf('ada', 'a', ['notes:read']), tokenOf('ada', 'bb', ['notes:read', 'notes:write']))).to.equal(true);
      });
    });

    context('when they are AuthInfos of another subject, or of another issuer', () => {
      it('says they are not', () => {
        expect(samePrincipal(tokenOf('ada', 'a', []), tokenOf('eve', 'a', []))).to.equal(false);
        expect(samePrincipal(tokenOf('ada', 'a', []), tokenOf('ada', 'a', [], 'https://other.example.com'))).to.equal(false);
      });
    });

    context('when neither has a principal', () => {
      it('says they are the same (null and undefined alike)', () => {
        expect(samePrincipal(undefined, undefined)).to.equal(true);
        expect(samePrincipal(undefined, null)).to.equal(true);
      });
    });
  });
});
