import { expect } from 'chai';
import { bearerChallenge } from '../../lib/entries/oauth';

describe('bearerChallenge', () => {
  context('when no token was sent', () => {
    it('names only where the resource metadata is', () => {
      expect(bearerChallenge({ resourceMetadata: 'https://api.example.com/.well-known/oauth-protected-resource/mcp' }))
        .to.equal('Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/mcp"');
    });

    it('is the bare scheme without parameters', () => {
      expect(bearerChallenge({})).to.equal('Bearer');
    });
  });

  context('when scopes are missing', () => {
    it('joins them with spaces in one scope parameter, after the error', () => {
      expect(bearerChallenge({ resourceMetadata: 'https://x/m', error: 'insufficient_scope', scopes: ['notes:read', 'notes:write'] }))
        .to.equal('Bearer resource_metadata="https://x/m", error="insufficient_scope", scope="notes:read notes:write"');
    });
  });

  context('when a value holds quotes or backslashes', () => {
    it('escapes them, so the value stays one quoted string', () => {
      expect(bearerChallenge({ error: 'invalid_token', errorDescription: 'say "no" to C:\\tokens' }))
        .to.equal('Bearer error="invalid_token", error_description="say \\"no\\" to C:\\\\tokens"');
    });
  });

  context('when a value holds characters a header cannot carry', () => {
    it('drops CR, LF, controls and non-ASCII, so no header can be injected', () => {
      const value = bearerChallenge({ errorDescription: 'bad\r\nSet-Cookie: a=b\u0000 caf\u00e9' });
      expect(value).to.equal('Bearer error_description="badSet-Cookie: a=b caf"');
      expect(value).to.match(/^[\x20-\x7E]*$/);
    });
  });
});
