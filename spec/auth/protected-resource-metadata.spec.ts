import { expect } from 'chai';
import { protectedResourceMetadata, protectedResourceMetadataUrl } from '../../lib/entries/oauth';
import { discoveryUrls } from '../../lib/auth/authorization-server-discovery';

describe('protectedResourceMetadata', () => {
  it('lists the resource, its authorization servers, its scopes once each, and header bearer tokens only', () => {
    expect(protectedResourceMetadata({
      resource: 'https://api.example.com/mcp',
      authorizationServers: ['https://auth.example.com'],
      scopes: ['notes:read', 'notes:write', 'notes:read'],
      resourceDocumentation: 'https://api.example.com/docs',
    })).to.deep.equal({
      resource: 'https://api.example.com/mcp',
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['notes:read', 'notes:write'],
      bearer_methods_supported: ['header'],
      resource_documentation: 'https://api.example.com/docs',
    });
  });

  it('leaves scopes_supported out when there are none', () => {
    expect(protectedResourceMetadata({ resource: 'https://a/mcp', authorizationServers: ['https://b'] })).not.to.have.property('scopes_supported');
  });
});

describe('protectedResourceMetadataUrl', () => {
  it('inserts the well-known path between the host and the resource path (RFC 9728 section 3.1)', () => {
    expect(protectedResourceMetadataUrl('https://api.example.com/mcp')).to.equal('https://api.example.com/.well-known/oauth-protected-resource/mcp');
  });

  it('drops a terminating slash and keeps the port and the query', () => {
    expect(protectedResourceMetadataUrl('http://127.0.0.1:3000/tenant/mcp/?v=1')).to.equal('http://127.0.0.1:3000/.well-known/oauth-protected-resource/tenant/mcp?v=1');
  });

  it('is the bare well-known URL for a resource at the root', () => {
    expect(protectedResourceMetadataUrl('https://api.example.com/')).to.equal('https://api.example.com/.well-known/oauth-protected-resource');
  });
});

describe('discoveryUrls', () => {
  context('when the issuer has no path', () => {
    it('tries RFC 8414 metadata, then OpenID Discovery (a trailing slash counts as no path: Auth0)', () => {
      expect(discoveryUrls('https://tenant.auth0.com/')).to.deep.equal([
        'https://tenant.auth0.com/.well-known/oauth-authorization-server',
        'https://tenant.auth0.com/.well-known/openid-configuration',
      ]);
    });
  });

  context('when the issuer has a path', () => {
    it('inserts the well-known paths before it, then appends OpenID\'s to it (Keycloak, Entra ID)', () => {
      expect(discoveryUrls('https://sso.example.com/realms/notes')).to.deep.equal([
        'https://sso.example.com/.well-known/oauth-authorization-server/realms/notes',
        'https://sso.example.com/.well-known/openid-configuration/realms/notes',
        'https://sso.example.com/realms/notes/.well-known/openid-configuration',
      ]);
    });
  });
});
