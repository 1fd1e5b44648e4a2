import { expect } from 'chai';
import {
  classify, DEFAULT_MAX_JSON_DEPTH, dispatchByKind, failure, isRequestId, notification, parseJson, request, success, type Classified,
} from '../../lib/core/jsonrpc';

/** A value nested `levels` containers deep, the outermost counting as level 1. */
function nested(levels: number): unknown {
  let value: unknown = {};
  for (let level = 1; level < levels; level += 1) value = { a: value };
  return value;
}

const refusal = (classified: Classified) => (classified.kind === 'invalid' ? { id: classified.id, ...classified.error } : classified.kind);

describe('jsonrpc', () => {
  describe('classify', () => {
    context('when the value is a well-formed message', () => {
      it('sorts a request, a notification and a response by their shape', () => {
        expect(classify({ jsonrpc: '2.0', id: 1, method: 'ping' }).kind).to.equal('request');
        expect(classify({ jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } }).kind).to.equal('request');
        expect(classify({ jsonrpc: '2.0', method: 'notifications/initialized' }).kind).to.equal('notification');
        expect(classify({ jsonrpc: '2.0', id: 1, result: {} }).kind).to.equal('response');
        expect(classify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }).kind).to.equal('response');
      });

      it('hands the message on as it came', () => {
        const message = { jsonrpc: '2.0', id: 7, method: 'ping', params: {} };
        expect(classify(message)).to.deep.equal({ kind: 'request', message });
      });
    });

    context('when the value is not a JSON-RPC object', () => {
      it('refuses it with -32600 and no id', () => {
        for (const value of [null, 42, 'ping', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]]) {
          expect(refusal(classify(value))).to.deep.equal({ id: null, code: -32600, message: 'Invalid Request: a message must be a JSON object' });
        }
      });
    });

    context('when a request is malformed', () => {
      it('refuses it with -32600 and its id when the id is usable', () => {
        expect(refusal(classify({ jsonrpc: '1.0', id: 3, method: 'ping' }))).to.deep.equal({ id: 3, code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0"' });
        expect(refusal(classify({ jsonrpc: '2.0', id: 4, method: 5 }))).to.deep.equal({ id: 4, code: -32600, message: 'Invalid Request: "method" must be a string' });
        expect(refusal(classify({ jsonrpc: '2.0', id: 5, method: 'x', params: [1] }))).to.deep.equal({ id: 5, code: -32600, message: 'Invalid Request: "params" must be an object' });
        expect(refusal(classify({ jsonrpc: '2.0', id: 6 }))).to.deep.equal({ id: 6, code: -32600, message: 'Invalid Request: neither a request, a notification nor a response' });
      });

      it('refuses ids that are neither a string nor a finite number, with no id', () => {
        for (const id of [null, true, {}, [], 1.5e400]) {
          expect(refusal(classify({ jsonrpc: '2.0', id, method: 'ping' }))).to.deep.equal({ id: null, code: -32600, message: 'Invalid Request: "id" must be a string or a number' });
        }
      });
    });

    context('when a response is malformed', () => {
      it('refuses a response without a usable id, and one whose result or error is not an object', () => {
        expect(refusal(classify({ jsonrpc: '2.0', id: true, result: {} }))).to.deep.equal({ id: null, code: -32600, message: 'Invalid Request: a response needs an id' });
        expect(refusal(classify({ jsonrpc: '2.0', id: 1, result: 'ok' }))).to.deep.equal({ id: 1, code: -32600, message: 'Invalid Request: malformed response' });
        expect(refusal(classify({ jsonrpc: '2.0', id: 1, error: 'bad' }))).to.deep.equal({ id: 1, code: -32600, message: 'Invalid Request: malformed response' });
      });
    });

    context('when a message nests deeper than the limit', () => {
      it('serves exactly the limit and refuses one level more, with the message\'s own id', () => {
        const at = (levels: number) => ({ jsonrpc: '2.0', id: 'deep', method: 'x', params: nested(levels - 1) as object });
        expect(classify(at(DEFAULT_MAX_JSON_DEPTH)).kind).to.equal('request');
        expect(refusal(classify(at(DEFAULT_MAX_JSON_DEPTH + 1)))).to.deep.equal({
          id: 'deep', code: -32600, message: `Invalid Request: the message nests deeper than ${DEFAULT_MAX_JSON_DEPTH} levels`,
        });
      });

      it('counts arrays as levels too, and takes a limit of its own', () => {
        const message = { jsonrpc: '2.0', id: 1, method: 'x', params: { list: [[1]] } };
        expect(classify(message, 4).kind).to.equal('request');
        expect(refusal(classify(message, 3))).to.deep.include({ code: -32600, message: 'Invalid Request: the message nests deeper than 3 levels' });
      });

      it('refuses a response nested too deeply before reading it', () => {
        expect(refusal(classify({ jsonrpc: '2.0', id: 9, result: nested(200) }))).to.deep.include({ id: 9, code: -32600 });
      });
    });
  });

  describe('isRequestId', () => {
    it('accepts strings and finite numbers only', () => {
      expect([1, 0, -2.5, '', 'a'].every(isRequestId)).to.equal(true);
      expect([null, undefined, NaN, Infinity, true, {}, []].some(isRequestId)).to.equal(false);
    });
  });

  describe('parseJson', () => {
    context('when the text is JSON', () => {
      it('gives its value', () => {
        expect(parseJson('{"a":[1,null]}')).to.deep.equal({ ok: true, value: { a: [1, null] } });
      });
    });

    context('when the text is not JSON', () => {
      it('says so instead of throwing', () => {
        for (const text of ['', '{', '{"a":}', 'undefined']) expect(parseJson(text)).to.deep.equal({ ok: false });
      });
    });
  });

  describe('dispatchByKind', () => {
    it('calls the handler of the message\'s kind with it', () => {
      const handlers = {
        request: () => 'request', notification: () => 'notification', response: () => 'response', invalid: () => 'invalid',
      };
      expect(dispatchByKind(classify({ jsonrpc: '2.0', method: 'n' }), handlers)).to.equal('notification');
      expect(dispatchByKind(classify(42), handlers)).to.equal('invalid');
    });
  });

  describe('message builders', () => {
    it('build the four shapes, leaving params out when there are none', () => {
      expect(request(1, 'ping')).to.deep.equal({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(request('r', 'x', { a: 1 })).to.deep.equal({ jsonrpc: '2.0', id: 'r', method: 'x', params: { a: 1 } });
      expect(notification('n')).to.deep.equal({ jsonrpc: '2.0', method: 'n' });
      expect(Object.keys(notification('n'))).not.to.include('params');
      expect(success(2, {})).to.deep.equal({ jsonrpc: '2.0', id: 2, result: {} });
      expect(failure(null, { code: -32700, message: 'Parse error' })).to.deep.equal({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    });
  });
});
