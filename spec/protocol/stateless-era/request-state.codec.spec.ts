import { expect } from 'chai';
import { ErrorCode, ProtocolError } from '../../../lib';
import { RequestStateCodec } from '../../../lib/protocol/stateless-era/request-state.codec';

describe('RequestStateCodec', () => {
  const binding = { method: 'tools/call', params: { name: 'greet', arguments: { a: 1 }, _meta: { x: 1 } }, principal: { user: 'ada' } };
  const codec = new RequestStateCodec('secret', 1000);
  const invalid = (fn: () => unknown) => expect(fn).to.throw(ProtocolError).with.property('code', ErrorCode.InvalidParams);

  it('gives back the answers it sealed', () => {
    const state = codec.seal(binding, { 'elicit-1': { action: 'accept' } });
    expect(codec.open(state, binding)).to.deep.equal({ 'elicit-1': { action: 'accept' } });
  });

  it('ignores what changes between rounds (_meta, inputResponses, requestState) and key order', () => {
    const state = codec.seal(binding, {});
    const retry = { ...binding, params: { arguments: { a: 1 }, name: 'greet', _meta: { y: 2 }, inputResponses: {}, requestState: state } };
    expect(codec.open(state, retry)).to.deep.equal({});
  });

  it('binds to the principal whatever order its keys come back in', () => {
    const state = codec.seal({ ...binding, principal: { user: 'ada', roles: ['dev'] } }, { k: 1 });
    expect(codec.open(state, { ...binding, principal: { roles: ['dev'], user: 'ada' } })).to.deep.equal({ k: 1 });
  });

  it('binds to an AuthInfo\'s issuer and subject: a refreshed token of the subject continues, another subject\'s does not', () => {
    const token = (sub: string, jti: string) => ({ subject: sub, scopes: [], issuer: 'https://as.example.com', audience: ['r'], expiresAt: jti.length, claims: { sub, jti } });
    const state = codec.seal({ ...binding, principal: token('ada', 'first') }, { k: 1 });
    expect(codec.open(state, { ...binding, principal: token('ada', 'refreshed') })).to.deep.equal({ k: 1 });
    invalid(() => codec.open(state, { ...binding, principal: token('eve', 'first') }));
  });

  it('rejects a tampered state', () => {
    const state = codec.seal(binding, { k: 1 });
    invalid(() => codec.open(`${state}-TAMPERED`, binding));
    const [body, signature] = state.split('.');
    const forged = Buffer.from(Buffer.from(body, 'base64url').toString().replace('"k":1', '"k":2')).toString('base64url');
    invalid(() => codec.open(`${forged}.${signature}`, binding));
  });

  it('rejects an expired state', () => {
    const state = codec.seal(binding, {}, 0);
    invalid(() => codec.open(state, binding, 5000));
  });

  it('rejects a state replayed on another request or by another principal', () => {
    const state = codec.seal(binding, {});
    invalid(() => codec.open(state, { ...binding, params: { name: 'other' } }));
    invalid(() => codec.open(state, { ...binding, method: 'prompts/get' }));
    invalid(() => codec.open(state, { ...binding, principal: { user: 'eve' } }));
  });

  it('rejects a state from another key, and values that are not states', () => {
    invalid(() => codec.open(new RequestStateCodec('other').seal(binding, {}), binding));
    for (const garbage of [42, null, '', 'a.b.c', 'x'.repeat(5000)]) invalid(() => codec.open(garbage, binding));
  });
});
