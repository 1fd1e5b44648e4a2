import 'reflect-metadata';
import { expect } from 'chai';
import { ErrorCode } from '../../lib';
import { isRefusal, isRouted, MethodTable, type EraMethod } from '../../lib/protocol/method-table';

type Requests = { readonly session: { readonly version: string }; readonly stateless: { readonly declared: boolean } };

const ANSWER = async () => ({});

function table(routed: readonly string[] = ['tools/call']): MethodTable<Requests> {
  return new MethodTable<Requests>((method) => routed.includes(method));
}

describe('MethodTable', () => {
  describe('#lookup', () => {
    context('when the router serves the method', () => {
      it('finds it in both eras', () => {
        const methods = table();
        expect(isRouted(methods.lookup('session', 'tools/call', { version: '2025-11-25' }) as never)).to.equal(true);
        expect(isRouted(methods.lookup('stateless', 'tools/call', { declared: false }) as never)).to.equal(true);
      });
    });

    context('when no era and no router serves it', () => {
      it('refuses it as method not found, naming it', () => {
        const found = table().lookup('session', 'no/such', { version: '2025-11-25' });
        expect(isRefusal(found)).to.equal(true);
        expect(found).to.deep.include({ kind: 'method-not-found' });
        expect(found).to.have.nested.property('error.code', ErrorCode.MethodNotFound);
        expect(found).to.have.nested.property('error.message').that.contains('no/such');
      });
    });

    context('when a method is registered for one era', () => {
      const ping: EraMethod<Requests, 'session'> = { method: 'x/ping', era: 'session', kind: 'protocol', serve: ANSWER };

      it('is served in that era only', () => {
        const methods = table().register([ping]);
        expect(methods.lookup('session', 'x/ping', { version: '2025-11-25' })).to.include({ method: 'x/ping', era: 'session' });
        expect(isRefusal(methods.lookup('stateless', 'x/ping', { declared: true }))).to.equal(true);
      });
    });

    context('when the method is not available to the request', () => {
      it('is unknown to it, as a method never registered', () => {
        const methods = table().register([
          { method: 'x/new', era: 'session', kind: 'protocol', available: ({ version }) => version >= '2025-11-25', serve: ANSWER },
        ]);
        expect(methods.lookup('session', 'x/new', { version: '2025-06-18' })).to.deep.include({ kind: 'method-not-found' });
        expect(isRefusal(methods.lookup('session', 'x/new', { version: '2025-11-25' }))).to.equal(false);
      });
    });

    context('when the method refuses the request as such', () => {
      it('gives its refusal, not the method', () => {
        const error = { code: ErrorCode.MissingRequiredClientCapability, message: 'declare it' };
        const methods = table().register([
          { method: 'x/get', era: 'stateless', kind: 'protocol', admit: ({ declared }) => (declared ? undefined : { kind: 'missing-capability', error }), serve: ANSWER },
        ]);
        expect(methods.lookup('stateless', 'x/get', { declared: false })).to.deep.equal({ kind: 'missing-capability', error });
        expect(methods.lookup('stateless', 'x/get', { declared: true })).to.include({ method: 'x/get' });
      });
    });
  });

  describe('#register', () => {
    context('when a method is registered twice in one era', () => {
      it('fails', () => {
        const ping: EraMethod<Requests, 'session'> = { method: 'x/ping', era: 'session', kind: 'protocol', serve: ANSWER };
        expect(() => table().register([ping, ping])).to.throw(/x\/ping is served twice in the session era/);
      });
    });

    context('when the router serves the method too', () => {
      it('serves the era\'s own first in that era, and the router\'s in the other', () => {
        const methods = table(['tasks/get']).register([{ method: 'tasks/get', era: 'session', kind: 'protocol', serve: ANSWER }]);
        expect(methods.lookup('session', 'tasks/get', { version: '2025-11-25' })).to.include({ era: 'session' });
        expect(isRouted(methods.lookup('stateless', 'tasks/get', { declared: true }) as never)).to.equal(true);
      });

      it('leaves it to the router where the era\'s own is not available', () => {
        const methods = table(['tasks/get']).register([{ method: 'tasks/get', era: 'session', kind: 'protocol', available: () => false, serve: ANSWER }]);
        expect(isRouted(methods.lookup('session', 'tasks/get', { version: '2025-06-18' }) as never)).to.equal(true);
      });
    });

    context('when one method is registered once in each era', () => {
      it('keeps both, each for its era', () => {
        const methods = table().register([
          { method: 'tasks/get', era: 'session', kind: 'protocol', serve: ANSWER },
          { method: 'tasks/get', era: 'stateless', kind: 'protocol', serve: ANSWER },
        ]);
        expect(methods.lookup('session', 'tasks/get', { version: '2025-11-25' })).to.include({ era: 'session' });
        expect(methods.lookup('stateless', 'tasks/get', { declared: true })).to.include({ era: 'stateless' });
      });
    });
  });
});
