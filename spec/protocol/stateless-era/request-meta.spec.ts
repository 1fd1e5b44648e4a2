import { expect } from 'chai';
import { carriesRequestMeta, MetaKey, readRequestMeta } from '../../../lib/protocol/stateless-era/request-meta';

const GOOD = {
  [MetaKey.protocolVersion]: '2026-07-28',
  [MetaKey.clientInfo]: { name: 'c', version: '1' },
  [MetaKey.clientCapabilities]: { sampling: {} },
};

const refusal = (message: string) => ({ error: { code: -32602, message: `Invalid _meta: ${message}` } });

describe('request-meta', () => {
  describe('carriesRequestMeta', () => {
    it('is true when _meta names a protocol version, whatever its value', () => {
      expect(carriesRequestMeta({ _meta: GOOD })).to.equal(true);
      expect(carriesRequestMeta({ _meta: { [MetaKey.protocolVersion]: 42 } })).to.equal(true);
    });

    it('is false for session-era params', () => {
      for (const params of [undefined, {}, { _meta: null }, { _meta: 'x' }, { _meta: { progressToken: 1 } }]) expect(carriesRequestMeta(params as never)).to.equal(false);
    });
  });

  describe('readRequestMeta', () => {
    context('when _meta is complete', () => {
      it('reads the version, client, capabilities, log level and progress token', () => {
        expect(readRequestMeta({ _meta: { ...GOOD, [MetaKey.logLevel]: 'warning', progressToken: 'p-1' } })).to.deep.equal({
          protocolVersion: '2026-07-28', clientInfo: { name: 'c', version: '1' }, clientCapabilities: { sampling: {} }, logLevel: 'warning', progressToken: 'p-1',
        });
      });

      it('leaves out a client info, level and token that were not sent, and a token that is neither a string nor a number', () => {
        const { [MetaKey.clientInfo]: _info, ...withoutInfo } = GOOD;
        expect(readRequestMeta({ _meta: { ...withoutInfo, progressToken: { bad: true } } })).to.deep.equal({
          protocolVersion: '2026-07-28', clientInfo: undefined, clientCapabilities: { sampling: {} }, logLevel: undefined, progressToken: undefined,
        });
      });
    });

    context('when _meta is missing or malformed', () => {
      it('refuses with -32602 naming what is wrong', () => {
        expect(readRequestMeta(undefined)).to.deep.equal(refusal('params._meta is required'));
        expect(readRequestMeta({ _meta: [] as never })).to.deep.equal(refusal('params._meta is required'));
        expect(readRequestMeta({ _meta: { ...GOOD, [MetaKey.protocolVersion]: '' } })).to.deep.equal(refusal(`"${MetaKey.protocolVersion}" must be a string`));
        expect(readRequestMeta({ _meta: { ...GOOD, [MetaKey.clientCapabilities]: [] } })).to.deep.equal(refusal(`"${MetaKey.clientCapabilities}" must be an object`));
        expect(readRequestMeta({ _meta: { ...GOOD, [MetaKey.clientInfo]: { name: 'c' } } })).to.deep.equal(refusal(`"${MetaKey.clientInfo}" must have a name and a version`));
        expect(readRequestMeta({ _meta: { ...GOOD, [MetaKey.logLevel]: 'loud' } })).to.deep.equal(refusal(`"${MetaKey.logLevel}" is not a logging level`));
      });
    });
  });
});
