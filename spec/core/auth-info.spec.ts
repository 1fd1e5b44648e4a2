import { expect } from 'chai';
import { principalIdentity, type AuthInfo } from '../../lib';

const info = (claims: Record<string, unknown>, subject: string, extra: Partial<AuthInfo> = {}): AuthInfo => ({
  subject, issuer: 'https://as.example', scopes: [], audience: ['https://mcp.example'], claims, ...extra,
});

describe('principalIdentity', () => {
  context('when two tokens of one subject differ only in what a refresh changes', () => {
    it('gives them one identity', () => {
      const first = info({ sub: 'ada', jti: '1', exp: 100 }, 'ada', { expiresAt: 100_000, scopes: ['a'] });
      const refreshed = info({ sub: 'ada', jti: '2', exp: 200 }, 'ada', { expiresAt: 200_000, scopes: ['a', 'b'] });
      expect(principalIdentity(first)).to.deep.equal(principalIdentity(refreshed));
    });
  });

  context('when a client-credentials token without sub names a client whose id is a user\'s sub', () => {
    it('keeps the client apart from the user', () => {
      const user = info({ sub: 'ada' }, 'ada');
      const client = info({ client_id: 'ada' }, 'ada', { clientId: 'ada' });
      expect(principalIdentity(client)).not.to.deep.equal(principalIdentity(user));
    });
  });

  context('when the issuers differ', () => {
    it('keeps the subjects apart', () => {
      expect(principalIdentity(info({ sub: 'ada' }, 'ada'))).not.to.deep.equal(principalIdentity(info({ sub: 'ada' }, 'ada', { issuer: 'https://other.example' })));
    });
  });

  context('when the principal is not an AuthInfo', () => {
    it('is the principal itself', () => {
      const principal = { user: 'ada' };
      expect(principalIdentity(principal)).to.equal(principal);
    });
  });
});
