import 'reflect-metadata';
import { expect } from 'chai';
import { Context, PhantomError, ProtocolError, RateLimitGuard, type ExecutionContext } from '../../../../lib';
import { OperationCall, type OperationKind } from '../../../../lib/router/pipeline/execution-context';

function callOf(context: Context, method = 'tools/call', kind: OperationKind = 'tool'): ExecutionContext {
  return new OperationCall(kind, method, 'echo', {}, context);
}

function refusal(guard: RateLimitGuard, call: ExecutionContext): ProtocolError {
  try {
    guard.canActivate(call);
  } catch (error) {
    return error as ProtocolError;
  }
  throw new Error('expected a refusal');
}

describe('RateLimitGuard', () => {
  let now: number;
  const clock = () => now;

  beforeEach(() => { now = 0; });

  describe('#canActivate', () => {
    it('lets a burst through, then refuses with -32029 and when to retry', () => {
      const guard = new RateLimitGuard({ burst: 2, perSecond: 4, now: clock });
      const call = callOf(new Context({ sessionId: 's1' }));
      expect([guard.canActivate(call), guard.canActivate(call)]).to.deep.equal([true, true]);
      const error = refusal(guard, call);
      expect(error).to.be.instanceOf(ProtocolError);
      expect(error.toJSON()).to.deep.equal({ code: -32029, message: 'Rate limit exceeded: retry in 250 ms', data: { retryAfterMs: 250 } });
      now += 250;
      expect(guard.canActivate(call)).to.equal(true);
    });

    context('per session (the default)', () => {
      it('gives each session its own bucket', () => {
        const guard = new RateLimitGuard({ burst: 1, now: clock });
        expect(guard.canActivate(callOf(new Context({ sessionId: 's1' })))).to.equal(true);
        expect(guard.canActivate(callOf(new Context({ sessionId: 's2' })))).to.equal(true);
        expect(refusal(guard, callOf(new Context({ sessionId: 's1' })))).to.include({ code: -32029 });
      });

      it('counts a request without a session against its principal', () => {
        const guard = new RateLimitGuard({ burst: 1, now: clock });
        expect(guard.canActivate(callOf(new Context({ principal: { sub: 'ada' } })))).to.equal(true);
        expect(guard.canActivate(callOf(new Context({ principal: { sub: 'bob' } })))).to.equal(true);
        expect(refusal(guard, callOf(new Context({ principal: { sub: 'ada' } })))).to.include({ code: -32029 });
      });
    });

    context('per principal', () => {
      it('shares one bucket between the sessions of a principal, whatever order its keys come in', () => {
        const guard = new RateLimitGuard({ burst: 1, per: 'principal', now: clock });
        expect(guard.canActivate(callOf(new Context({ sessionId: 's1', principal: { sub: 'ada', org: 'x' } })))).to.equal(true);
        expect(refusal(guard, callOf(new Context({ sessionId: 's2', principal: { org: 'x', sub: 'ada' } })))).to.include({ code: -32029 });
      });
    });

    context('per principal, with AuthInfo principals', () => {
      it('shares one bucket between the tokens of a subject (a refreshed token is no new bucket)', () => {
        const guard = new RateLimitGuard({ burst: 1, per: 'principal', now: clock });
        const token = (sub: string, jti: string) => ({ subject: sub, scopes: [], issuer: 'https://as.example.com', audience: ['r'], expiresAt: jti.length, claims: { sub, jti } });
        expect(guard.canActivate(callOf(new Context({ principal: token('ada', 'first') })))).to.equal(true);
        expect(guard.canActivate(callOf(new Context({ principal: token('eve', 'first') })))).to.equal(true);
        expect(refusal(guard, callOf(new Context({ principal: token('ada', 'refreshed') })))).to.include({ code: -32029 });
      });
    });

    context('per a key of the application', () => {
      it('uses the key the function gives', () => {
        const guard = new RateLimitGuard({ burst: 1, per: (call) => String(call.target), now: clock });
        expect(guard.canActivate(callOf(new Context({ sessionId: 's1' })))).to.equal(true);
        expect(refusal(guard, callOf(new Context({ sessionId: 's2' })))).to.include({ code: -32029 });
      });
    });

    it('does not count ping by default', () => {
      const guard = new RateLimitGuard({ burst: 1, now: clock });
      const ping = callOf(new Context({ sessionId: 's1' }), 'ping', 'protocol');
      expect([guard.canActivate(ping), guard.canActivate(ping), guard.canActivate(ping)]).to.deep.equal([true, true, true]);
      expect(guard.canActivate(callOf(new Context({ sessionId: 's1' })))).to.equal(true);
    });

    it('skips what the skip option says', () => {
      const guard = new RateLimitGuard({ burst: 1, skip: (call) => call.kind === 'list', now: clock });
      const list = callOf(new Context({ sessionId: 's1' }), 'tools/list', 'list');
      expect([guard.canActivate(list), guard.canActivate(list)]).to.deep.equal([true, true]);
    });
  });

  describe('constructor', () => {
    it('refuses options that cannot work, all at once', () => {
      expect(() => new RateLimitGuard({ burst: 0, perSecond: -1, maxKeys: 1.5 })).to.throw(PhantomError,
        'RateLimitGuard: burst must be a whole number of at least 1, not 0; perSecond must be a number above 0, not -1; maxKeys must be a whole number of at least 1, not 1.5');
    });
  });
});
