import 'reflect-metadata';
import { expect } from 'chai';
import { Context } from '../../lib';
import { bindInvoker, readHandlerSignature } from '../../lib/definitions/handler-signature';

/** A thenable of another promise library's kind: not a native promise. */
function foreignThenable<T>(value: T): PromiseLike<T> {
  return { then: (onFulfilled) => Promise.resolve(onFulfilled ? onFulfilled(value) : value) as never };
}

class Handlers {
  now(): string {
    return 'now';
  }

  async later(): Promise<string> {
    return 'later';
  }

  foreign(): PromiseLike<string> {
    return foreignThenable('foreign');
  }

  fails(): string {
    throw new Error('boom');
  }
}

const invokerOf = (method: keyof Handlers) => bindInvoker(() => new Handlers(), method, readHandlerSignature(Handlers.prototype, method));

describe('bindInvoker', () => {
  it('gives a synchronous method\'s value as it is, without a promise', () => {
    expect(invokerOf('now')({}, new Context())).to.equal('now');
  });

  it('gives an async method\'s promise', async () => {
    const value = invokerOf('later')({}, new Context());
    expect(value).to.be.instanceOf(Promise);
    expect(await value).to.equal('later');
  });

  it('adopts another library\'s thenable into a native promise, as an async method would', async () => {
    const value = invokerOf('foreign')({}, new Context());
    expect(value).to.be.instanceOf(Promise);
    expect(await value).to.equal('foreign');
  });

  it('throws what a synchronous method throws (the pipeline catches it as a rejection)', () => {
    expect(() => invokerOf('fails')({}, new Context())).to.throw('boom');
  });
});
