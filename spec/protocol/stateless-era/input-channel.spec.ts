import { expect } from 'chai';
import { InputRequiredSignal, ProtocolError } from '../../../lib/core/errors';
import type { JsonRpcMessage } from '../../../lib/core/jsonrpc';
import type { JsonObject } from '../../../lib/core/wire.types';
import { InputChannel } from '../../../lib/protocol/stateless-era/input-channel';

/** The request's response stream, as the channel sees it. */
class FakeExchange {
  readonly sent: JsonRpcMessage[] = [];
  open = true;
  send(message: JsonRpcMessage): void { this.sent.push(message); }
}

const ASK = { signal: new AbortController().signal };
const SAMPLED = { role: 'assistant', content: { type: 'text', text: 'hi' } };

function channel(answers: JsonObject = {}, allowsInput = true) {
  const exchange = new FakeExchange();
  const updated: string[] = [];
  const input = new InputChannel(exchange as never, answers, 'info', allowsInput, async (uri) => { updated.push(uri); });
  return { exchange, updated, input };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(() => undefined, (error: unknown) => error);
}

describe('InputChannel', () => {
  describe('#request', () => {
    context('when the request carries no answer for the input', () => {
      it('records an input request under a key by method and order, and ends the round', async () => {
        const { input } = channel();
        expect(await rejection(input.request('sampling/createMessage', { maxTokens: 5 } as never, ASK))).to.be.instanceOf(InputRequiredSignal);
        expect(await rejection(input.request('roots/list', {}, ASK))).to.be.instanceOf(InputRequiredSignal);
        expect([...input.inputRequests]).to.deep.equal([
          ['sample-1', { method: 'sampling/createMessage', params: { maxTokens: 5 } }],
          ['roots-2', { method: 'roots/list', params: {} }],
        ]);
      });

      it('uses the key the handler names', async () => {
        const { input } = channel();
        await rejection(input.request('elicitation/create', {}, { ...ASK, key: 'who' }));
        expect([...input.inputRequests.keys()]).to.deep.equal(['who']);
      });
    });

    context('when the request carries the answer (a retry)', () => {
      it('gives it to the handler and records it as used, to seal into the next requestState', async () => {
        const { input } = channel({ 'sample-1': SAMPLED });
        expect(await input.request('sampling/createMessage', {}, ASK)).to.deep.equal(SAMPLED);
        expect({ ...input.used }).to.deep.equal({ 'sample-1': SAMPLED });
        expect(input.inputRequests.size).to.equal(0);
      });
    });

    context('when the answer is not a valid result of the method', () => {
      it('refuses with invalid params naming the key and the problem', async () => {
        const { input } = channel({ 'elicit-1': { action: 'maybe' }, 'sample-2': 'text' });
        const bad = await rejection(input.request('elicitation/create', {}, ASK)) as ProtocolError;
        expect(bad.toJSON()).to.deep.equal({
          code: -32602, message: 'inputResponses["elicit-1"] is not a valid elicitation/create result: "action" must be accept, decline or cancel',
        });
        const notObject = await rejection(input.request('sampling/createMessage', {}, ASK)) as ProtocolError;
        expect(notObject.message).to.equal('inputResponses["sample-2"] is not a valid sampling/createMessage result: it must be an object');
      });
    });

    context('when a handler names a key like an Object.prototype member', () => {
      it('finds no answer in the prototype: it asks for input', async () => {
        const { input } = channel();
        expect(await rejection(input.request('elicitation/create', {}, { ...ASK, key: 'constructor' }))).to.be.instanceOf(InputRequiredSignal);
        expect(await rejection(input.request('elicitation/create', {}, { ...ASK, key: 'toString' }))).to.be.instanceOf(InputRequiredSignal);
      });

      it('records a used __proto__ answer as an ordinary entry', async () => {
        const answers = JSON.parse('{"__proto__":{"action":"accept","content":{}}}') as JsonObject;
        const { input } = channel(answers);
        expect(await input.request('elicitation/create', {}, { ...ASK, key: '__proto__' })).to.deep.equal({ action: 'accept', content: {} });
        expect(Object.keys(input.used)).to.deep.equal(['__proto__']);
      });
    });

    context('when the method being answered cannot take input', () => {
      it('refuses with an internal error naming the request', async () => {
        const { input } = channel({ 'sample-1': SAMPLED }, false);
        const refused = await rejection(input.request('sampling/createMessage', {}, ASK)) as ProtocolError;
        expect(refused.toJSON()).to.deep.equal({ code: -32603, message: 'sampling/createMessage cannot be requested while answering this method' });
      });
    });
  });

  describe('#notify', () => {
    context('when the response stream is open', () => {
      it('sends the notification on it', async () => {
        const { input, exchange } = channel();
        await input.notify('notifications/progress', { progressToken: 'p', progress: 1 });
        expect(exchange.sent).to.deep.equal([{ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } }]);
      });
    });

    context('when the client has gone', () => {
      it('sends nothing', async () => {
        const { input, exchange } = channel();
        exchange.open = false;
        await input.notify('notifications/message', { level: 'info', data: 'x' });
        expect(exchange.sent).to.deep.equal([]);
      });
    });
  });

  describe('#resourceUpdated', () => {
    it('passes the URI to the server\'s resource events', async () => {
      const { input, updated } = channel();
      await input.resourceUpdated('x://a');
      expect(updated).to.deep.equal(['x://a']);
    });
  });

  describe('#missingCapabilities', () => {
    it('is -32021 naming each capability, in data too', () => {
      const error = channel().input.missingCapabilities(['elicitation', 'sampling']) as ProtocolError;
      expect(error.toJSON()).to.deep.equal({
        code: -32021, message: 'Missing required client capabilities: elicitation, sampling', data: { requiredCapabilities: { elicitation: {}, sampling: {} } },
      });
    });
  });
});
