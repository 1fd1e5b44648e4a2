import { expect } from 'chai';
import { createServer, request, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { declaredTooLarge, readBody, type BodyLimits, type BodyOutcome, type SelfReadingRequest } from '../../../lib/transport/http/body-reader';

const LIMITS: BodyLimits = { maxBytes: 64, timeoutMs: 10_000 };

/**
 * A real Node HTTP server whose handler reads each request's body with `readBody`, as `read`
 * says, and hands the outcome to the spec (the client may be gone by then).
 */
class BodyServer {
  private readonly server: Server;
  private settle?: (outcome: BodyOutcome) => void;
  read: (req: IncomingMessage) => BodyOutcome | Promise<BodyOutcome> = (req) => readBody(req, undefined, LIMITS);

  constructor() {
    this.server = createServer(async (req, res) => {
      const outcome = await this.read(req);
      this.settle?.(outcome);
      res.writeHead(200, { connection: 'close' }).end();
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Opens a POST (headers sent at once); `outcome` resolves with what the handler read. */
  post(headers: Record<string, string | number> = {}): { req: ClientRequest; outcome: Promise<BodyOutcome> } {
    const outcome = new Promise<BodyOutcome>((resolve) => { this.settle = resolve; });
    const req = request({ host: '127.0.0.1', port: this.port, method: 'POST', path: '/mcp', headers });
    req.on('error', () => {});
    req.on('response', (res) => res.resume());
    req.flushHeaders();
    return { req, outcome };
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** Reads a request's stream to the end, as a host framework's body parser would. */
function consume(req: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    req.on('data', () => {});
    req.on('end', () => resolve());
  });
}

/** Counts the timers set for `ms` until `restore` (the body deadline is the only one of that length). */
function countTimers(ms: number): { readonly count: number; restore(): void } {
  const original = globalThis.setTimeout;
  const counter = {
    count: 0,
    restore: () => { globalThis.setTimeout = original; },
  };
  globalThis.setTimeout = ((callback: () => void, delay?: number) => {
    if (delay === ms) counter.count += 1;
    return original(callback, delay);
  }) as typeof setTimeout;
  return counter;
}

describe('body-reader', () => {
  let server: BodyServer;

  beforeEach(async () => {
    server = new BodyServer();
    await server.listen();
  });

  afterEach(() => server.close());

  describe('readBody', () => {
    context('when the body is still on the stream', () => {
      it('reads it whole, however many chunks it comes in', async () => {
        const { req, outcome } = server.post({ 'transfer-encoding': 'chunked' });
        req.write('{"jsonrpc":"2.0",');
        req.write('"method":"ping","id":1}');
        req.end();
        expect(await outcome).to.deep.equal({ ok: true, text: '{"jsonrpc":"2.0","method":"ping","id":1}' });
      });

      it('refuses a declared Content-Length past the limit before reading a byte', async () => {
        const { req, outcome } = server.post({ 'content-length': LIMITS.maxBytes + 1 });
        expect(await outcome).to.deep.equal({ ok: false, reason: 'too_large' });
        req.destroy();
      });

      it('stops keeping bytes once an undeclared body passes the limit', async () => {
        const { req, outcome } = server.post({ 'transfer-encoding': 'chunked' });
        req.write('x'.repeat(LIMITS.maxBytes));
        req.write('x');
        expect(await outcome).to.deep.equal({ ok: false, reason: 'too_large' });
        req.destroy();
      });

      it('reports the client going away mid-body as aborted', async () => {
        const { req, outcome } = server.post({ 'content-length': 40 });
        req.write('{"jsonrpc":');
        setImmediate(() => req.destroy());
        expect(await outcome).to.deep.equal({ ok: false, reason: 'aborted' });
      });

      it('sets no deadline for a body that came with its headers (the usual POST)', async () => {
        const timeoutMs = 12_345;
        server.read = (req) => readBody(req, undefined, { maxBytes: 64, timeoutMs });
        const deadlines = countTimers(timeoutMs);
        try {
          const { req, outcome } = server.post({ 'content-length': 2 });
          req.end('{}');
          expect(await outcome).to.deep.equal({ ok: true, text: '{}' });
        } finally {
          deadlines.restore();
        }
        expect(deadlines.count).to.equal(0);
      });

      it('sets a deadline for a body still on its way', async () => {
        const timeoutMs = 12_345;
        // The body is sent once the reader has looked for it (its check is queued before ours).
        let lookedFor!: () => void;
        const looked = new Promise<void>((resolve) => { lookedFor = resolve; });
        server.read = (req) => {
          const read = readBody(req, undefined, { maxBytes: 64, timeoutMs });
          setImmediate(lookedFor);
          return read;
        };
        const deadlines = countTimers(timeoutMs);
        try {
          const { req, outcome } = server.post({ 'content-length': 2 });
          await looked;
          req.end('{}');
          expect(await outcome).to.deep.equal({ ok: true, text: '{}' });
        } finally {
          deadlines.restore();
        }
        expect(deadlines.count).to.equal(1);
      });

      it('reports a body that stops arriving as timed out, after timeoutMs', async () => {
        server.read = (req) => readBody(req, undefined, { maxBytes: 64, timeoutMs: 20 });
        const { req, outcome } = server.post({ 'content-length': 40 });
        req.write('{"jsonrpc":');
        expect(await outcome).to.deep.equal({ ok: false, reason: 'timeout' });
        req.destroy();
      });
    });

    context('when a host framework already read the stream', () => {
      it('takes what its parser left on req.body, parsed or raw', async () => {
        server.read = async (req) => {
          await consume(req);
          Object.assign(req, { body: { jsonrpc: '2.0', method: 'ping', id: 2 } });
          return readBody(req, undefined, LIMITS);
        };
        const { req, outcome } = server.post({ 'content-type': 'application/json' });
        req.end('{"jsonrpc":"2.0","method":"ping","id":2}');
        expect(await outcome).to.deep.equal({ ok: true, text: '{"jsonrpc":"2.0","method":"ping","id":2}' });
      });

      it('reports the body as consumed when the parser left nothing', async () => {
        server.read = async (req) => {
          await consume(req);
          return readBody(req, undefined, LIMITS);
        };
        const { req, outcome } = server.post();
        req.end('{}');
        expect(await outcome).to.deep.equal({ ok: false, reason: 'consumed' });
      });
    });

    context('when the stream is unread and req.body holds a placeholder (Express 4 sets {} for types it skips)', () => {
      it('reads the stream, not the placeholder', async () => {
        server.read = (req) => {
          Object.assign(req, { body: {} });
          return readBody(req, undefined, LIMITS);
        };
        const { req, outcome } = server.post();
        req.end('[1,2]');
        expect(await outcome).to.deep.equal({ ok: true, text: '[1,2]' });
      });
    });

    context('when the caller hands the body in', () => {
      const supplied = (value: unknown) => {
        server.read = (req) => {
          req.resume();
          return readBody(req, value, LIMITS);
        };
        const { req, outcome } = server.post();
        req.end();
        return outcome;
      };

      it('takes text, bytes and a parsed value, each as JSON text', async () => {
        expect(await supplied('{"a":1}')).to.deep.equal({ ok: true, text: '{"a":1}' });
        expect(await supplied(Buffer.from('{"b":2}'))).to.deep.equal({ ok: true, text: '{"b":2}' });
        expect(await supplied({ c: 3 })).to.deep.equal({ ok: true, text: '{"c":3}' });
        expect(await supplied(null)).to.deep.equal({ ok: true, text: 'null' });
      });

      it('refuses any of them past the limit', async () => {
        const big = 'x'.repeat(LIMITS.maxBytes);
        expect(await supplied(JSON.stringify(big))).to.deep.equal({ ok: false, reason: 'too_large' });
        expect(await supplied(Buffer.from(`"${big}"`))).to.deep.equal({ ok: false, reason: 'too_large' });
        expect(await supplied({ big })).to.deep.equal({ ok: false, reason: 'too_large' });
      });

      it('refuses a parsed value that cannot be written back as JSON as unreadable, with the id it names', async () => {
        const circular: Record<string, unknown> = { jsonrpc: '2.0', id: 7, method: 'ping' };
        circular.self = circular;
        expect(await supplied(circular)).to.deep.equal({ ok: false, reason: 'unreadable', id: 7 });
        const list: unknown[] = [];
        list.push(list);
        expect(await supplied(list)).to.deep.equal({ ok: false, reason: 'unreadable', id: null });
      });

      it('ignores a function (Express passes next third) and reads the stream', async () => {
        server.read = (req) => readBody(req, () => {}, LIMITS);
        const { req, outcome } = server.post();
        req.end('{"d":4}');
        expect(await outcome).to.deep.equal({ ok: true, text: '{"d":4}' });
      });
    });

    context('when the request reads its own body (the fetch adapter)', () => {
      it('lets it, with the same limits', async () => {
        const asked: BodyLimits[] = [];
        const own: SelfReadingRequest = {
          headers: { 'content-length': '999999' }, rawHeaders: [],
          readText: async (limits) => { asked.push(limits); return { ok: true, text: '{}' }; },
        };
        expect(await readBody(own as never, undefined, LIMITS)).to.deep.equal({ ok: true, text: '{}' });
        expect(asked).to.deep.equal([LIMITS]);
      });
    });
  });

  describe('declaredTooLarge', () => {
    it('is true only for a Content-Length past the limit', () => {
      const req = (length?: string) => ({ headers: length === undefined ? {} : { 'content-length': length }, rawHeaders: [] });
      expect(declaredTooLarge(req('65'), 64)).to.equal(true);
      expect(declaredTooLarge(req('64'), 64)).to.equal(false);
      expect(declaredTooLarge(req(), 64)).to.equal(false);
      expect(declaredTooLarge(req('lots'), 64)).to.equal(false);
    });
  });
});
