import { expect } from 'chai';
import { allowsBatches, isSessionEraVersion, LATEST_SESSION_VERSION, negotiateVersion, SESSION_ERA_VERSIONS } from '../../lib/protocol/versions';

describe('versions', () => {
  describe('negotiateVersion', () => {
    context('when the client asks for a revision the server speaks', () => {
      it('answers with it', () => {
        for (const version of SESSION_ERA_VERSIONS) expect(negotiateVersion(version)).to.equal(version);
      });
    });

    context('when the client asks for anything else', () => {
      it('answers with the newest session-era revision, and the client decides', () => {
        for (const requested of ['2024-11-05', '2026-07-28', '', undefined, 20251125]) expect(negotiateVersion(requested)).to.equal('2025-11-25');
        expect(LATEST_SESSION_VERSION).to.equal(SESSION_ERA_VERSIONS[0]);
      });
    });
  });

  describe('isSessionEraVersion', () => {
    it('knows the three session-era revisions and nothing else', () => {
      expect(SESSION_ERA_VERSIONS).to.deep.equal(['2025-11-25', '2025-06-18', '2025-03-26']);
      expect(['2025-11-25', '2025-06-18', '2025-03-26'].every(isSessionEraVersion)).to.equal(true);
      expect(['2026-07-28', '2024-11-05', null].some(isSessionEraVersion)).to.equal(false);
    });
  });

  describe('allowsBatches', () => {
    it('allows JSON-RPC batches at 2025-03-26 only', () => {
      expect(SESSION_ERA_VERSIONS.filter(allowsBatches)).to.deep.equal(['2025-03-26']);
      expect(allowsBatches('2026-07-28')).to.equal(false);
    });
  });
});
