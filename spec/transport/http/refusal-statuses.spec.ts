import 'reflect-metadata';
import { expect } from 'chai';
import { REFUSAL_STATUS, refusalHeaders, statusOf } from '../../../lib/transport/http/refusal-statuses';

/** The statuses the specs of both eras and both conformance suites check, by refusal kind. */
const EXPECTED = {
  'session-required': 400,
  'session-not-found': 404,
  'other-principal': 403,
  'unsupported-version': 400,
  'invalid-request': 400,
  'invalid-params': 400,
  'header-mismatch': 400,
  'method-not-found': 404,
  'forbidden': 403,
  'insufficient-scope': 403,
  'rate-limited': 429,
  'missing-capability': 400,
  'too-many-sessions': 503,
  'too-many-streams': 503,
  'server-closing': 503,
  'store-unavailable': 503,
  'overloaded': 503,
  'internal-error': 500,
} as const;

describe('REFUSAL_STATUS', () => {
  it('gives every refusal kind its HTTP status', () => {
    expect(REFUSAL_STATUS).to.deep.equal(EXPECTED);
  });
});

describe('statusOf', () => {
  it('is 200 for an answer that was not refused', () => {
    expect(statusOf(undefined)).to.equal(200);
    expect(statusOf('rate-limited')).to.equal(429);
  });
});

describe('refusalHeaders', () => {
  it('asks the client to drop the connection when the server is closing, and adds nothing otherwise', () => {
    expect(refusalHeaders('server-closing', { vary: 'origin' })).to.deep.equal({ vary: 'origin', connection: 'close' });
    expect(refusalHeaders('forbidden', { vary: 'origin' })).to.deep.equal({ vary: 'origin' });
  });

  it('says when to try again while the shared store is away, or the heap is nearly full', () => {
    expect(refusalHeaders('store-unavailable', { vary: 'origin' })).to.deep.equal({ vary: 'origin', 'retry-after': '1' });
    expect(refusalHeaders('overloaded', { vary: 'origin' })).to.deep.equal({ vary: 'origin', 'retry-after': '1' });
  });
});
