import { expect } from 'chai';
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpRequestLike } from '../../../lib/transport/http/http-like.types';
import { accepts, header, hostAllowed, isJsonContent, originAllowed, repeatedHeader } from '../../../lib/transport/http/request-guards';

/** A request with these headers, sent as given (names as spelled, repeated ones repeated). */
function request(raw: ReadonlyArray<readonly [string, string]>): HttpRequestLike {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of raw) {
    const key = name.toLowerCase();
    if (headers[key] === undefined) headers[key] = value;
  }
  return { method: 'POST', url: '/mcp', headers, rawHeaders: raw.flat() };
}

const withHeaders = (headers: Record<string, string>) => request(Object.entries(headers));

describe('request guards', () => {
  describe('hostAllowed', () => {
    context('with the default list (loopback names)', () => {
      for (const host of ['localhost', 'localhost:3000', '127.0.0.1:8080', '[::1]:80', 'LOCALHOST:1']) {
        it(`accepts Host ${host}`, () => {
          expect(hostAllowed(withHeaders({ host }))).to.equal(true);
        });
      }
      for (const host of ['evil.example', 'evil.example:3000', 'localhost.evil.example', '127.0.0.2', '[::2]:80']) {
        it(`refuses Host ${host} (DNS rebinding)`, () => {
          expect(hostAllowed(withHeaders({ host }))).to.equal(false);
        });
      }
      it('refuses a request without a Host header', () => {
        expect(hostAllowed(withHeaders({}))).to.equal(false);
      });
    });

    context('with a list of its own', () => {
      const allowed = ['api.example', 'edge.example:8443'];

      it('accepts a bare name on any port, and host:port on that port only', () => {
        expect(hostAllowed(withHeaders({ host: 'api.example:9999' }), allowed)).to.equal(true);
        expect(hostAllowed(withHeaders({ host: 'API.EXAMPLE' }), allowed)).to.equal(true);
        expect(hostAllowed(withHeaders({ host: 'edge.example:8443' }), allowed)).to.equal(true);
        expect(hostAllowed(withHeaders({ host: 'edge.example:80' }), allowed)).to.equal(false);
      });

      it('refuses the loopback names it does not list', () => {
        expect(hostAllowed(withHeaders({ host: 'localhost' }), allowed)).to.equal(false);
      });

      it('accepts any host with *', () => {
        expect(hostAllowed(withHeaders({ host: 'anything.example:1' }), ['*'])).to.equal(true);
      });

      it('decides each list on its own: a verdict for one list is not reused for another', () => {
        const host = withHeaders({ host: 'api.example' });
        expect(hostAllowed(host, ['api.example'])).to.equal(true);
        expect(hostAllowed(host, ['other.example'])).to.equal(false);
      });
    });
  });

  describe('originAllowed', () => {
    context('when the request has no Origin (not from a page)', () => {
      it('accepts it', () => {
        expect(originAllowed(withHeaders({}))).to.equal(true);
        expect(originAllowed(withHeaders({}), ['https://app.example'])).to.equal(true);
      });
    });

    context('with the default (loopback origins)', () => {
      it('accepts a loopback origin on any port and scheme, and refuses any other', () => {
        expect(originAllowed(withHeaders({ origin: 'http://localhost:5173' }))).to.equal(true);
        expect(originAllowed(withHeaders({ origin: 'https://127.0.0.1' }))).to.equal(true);
        expect(originAllowed(withHeaders({ origin: 'http://[::1]:3000' }))).to.equal(true);
        expect(originAllowed(withHeaders({ origin: 'https://evil.example' }))).to.equal(false);
        expect(originAllowed(withHeaders({ origin: 'http://localhost.evil.example' }))).to.equal(false);
      });

      it('refuses an Origin that is not a URL, and the opaque origin null', () => {
        expect(originAllowed(withHeaders({ origin: 'not a url' }))).to.equal(false);
        expect(originAllowed(withHeaders({ origin: 'null' }))).to.equal(false);
      });
    });

    context('with a list of its own', () => {
      it('accepts the listed origins exactly (ignoring case), and any with *', () => {
        const allowed = ['https://app.example'];
        expect(originAllowed(withHeaders({ origin: 'HTTPS://APP.EXAMPLE' }), allowed)).to.equal(true);
        expect(originAllowed(withHeaders({ origin: 'https://app.example:8443' }), allowed)).to.equal(false);
        expect(originAllowed(withHeaders({ origin: 'http://localhost:3000' }), allowed)).to.equal(false);
        expect(originAllowed(withHeaders({ origin: 'https://any.example' }), ['*'])).to.equal(true);
      });
    });
  });

  describe('accepts', () => {
    it('finds a listed type, with parameters, spaces and any case', () => {
      const req = withHeaders({ accept: 'Application/JSON;q=0.9 , text/event-stream' });
      expect(accepts(req, 'application/json')).to.equal(true);
      expect(accepts(req, 'text/event-stream')).to.equal(true);
    });

    it('takes */* and type/* as covering the type', () => {
      expect(accepts(withHeaders({ accept: '*/*' }), 'text/event-stream')).to.equal(true);
      expect(accepts(withHeaders({ accept: 'text/*' }), 'text/event-stream')).to.equal(true);
      expect(accepts(withHeaders({ accept: 'text/*' }), 'application/json')).to.equal(false);
    });

    it('is false without an Accept header, or when the type is not listed', () => {
      expect(accepts(withHeaders({}), 'application/json')).to.equal(false);
      expect(accepts(withHeaders({ accept: 'text/html' }), 'application/json')).to.equal(false);
    });
  });

  describe('isJsonContent', () => {
    it('is true for application/json with parameters and in any case', () => {
      expect(isJsonContent(withHeaders({ 'content-type': 'application/json' }))).to.equal(true);
      expect(isJsonContent(withHeaders({ 'content-type': 'Application/JSON; charset=utf-8' }))).to.equal(true);
    });

    it('is false for other types and without a Content-Type', () => {
      expect(isJsonContent(withHeaders({ 'content-type': 'text/plain' }))).to.equal(false);
      expect(isJsonContent(withHeaders({ 'content-type': 'application/json-seq' }))).to.equal(false);
      expect(isJsonContent(withHeaders({}))).to.equal(false);
    });
  });

  describe('header', () => {
    it('gives a header\'s value, the first of several, or undefined', () => {
      const req: HttpRequestLike = { headers: { 'x-one': 'a', 'set-cookie': ['b', 'c'] }, rawHeaders: [] };
      expect(header(req, 'x-one')).to.equal('a');
      expect(header(req, 'set-cookie')).to.equal('b');
      expect(header(req, 'x-none')).to.equal(undefined);
    });
  });

  describe('repeatedHeader', () => {
    for (const name of ['Host', 'Mcp-Session-Id', 'MCP-PROTOCOL-VERSION']) {
      context(`when ${name} is sent twice`, () => {
        it('names it, in lower case', () => {
          expect(repeatedHeader(request([[name, 'a'], ['accept', '*/*'], [name.toLowerCase(), 'b']]))).to.equal(name.toLowerCase());
        });
      });
    }

    context('when each single-valued header comes once, and others repeat', () => {
      it('finds none', () => {
        expect(repeatedHeader(request([['host', 'localhost'], ['mcp-session-id', 's'], ['mcp-protocol-version', 'v'], ['accept', 'a'], ['accept', 'b']]))).to.equal(undefined);
      });
    });
  });
});
