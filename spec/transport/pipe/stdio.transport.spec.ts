import { expect } from 'chai';
import { PassThrough, Writable } from 'node:stream';
import { StdioTransport } from '../../../lib';
import { MalformedMessageError } from '../../../lib/transport/pipe/message-transport';

function pipes(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioTransport({ input, output, maxLineBytes });
  const received: unknown[] = [];
  const errors: Error[] = [];
  transport.onmessage = (m) => received.push(m);
  transport.onerror = (e) => errors.push(e);
  return { input, output, transport, received, errors };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('StdioTransport', () => {
  it('reads one JSON message per line, across chunk boundaries and CRLF', async () => {
    const { input, transport, received } = pipes();
    await transport.start();
    input.write('{"jsonrpc":"2.0","id":1,');
    input.write('"method":"ping"}\r\n{"jsonrpc":"2.0","method":"x"}\n\n');
    await tick();
    expect(received).to.deep.equal([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', method: 'x' }]);
  });

  it('writes compact JSON, one message per line', async () => {
    const { output, transport } = pipes();
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, result: { a: [1, 2] } });
    expect(output.read().toString()).to.equal('{"jsonrpc":"2.0","id":1,"result":{"a":[1,2]}}\n');
  });

  it('reports a line that is not JSON and goes on reading', async () => {
    const { input, transport, received, errors } = pipes();
    await transport.start();
    input.write('not json\n{"jsonrpc":"2.0","method":"ok"}\n');
    await tick();
    expect(errors).to.have.length(1);
    expect(errors[0]).to.be.instanceOf(MalformedMessageError);
    expect(received).to.deep.equal([{ jsonrpc: '2.0', method: 'ok' }]);
  });

  it('drops a line longer than the limit without buffering it', async () => {
    const { input, transport, received, errors } = pipes(64);
    await transport.start();
    input.write(`{"pad":"${'x'.repeat(200)}"}\n{"jsonrpc":"2.0","method":"after"}\n`);
    await tick();
    expect(errors.map((e) => e.name)).to.deep.equal(['MalformedMessageError']);
    expect(received).to.deep.equal([{ jsonrpc: '2.0', method: 'after' }]);
  });

  it('delivers every message of a chunk, in order, and skips blank lines without a word', async () => {
    const { input, transport, received, errors } = pipes();
    await transport.start();
    input.write('{"id":1}\n\n\r\n{"id":2}\r\n{"id":3}\n{"id":');
    input.write('4}\n');
    await tick();
    expect(received).to.deep.equal([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    expect(errors).to.deep.equal([]);
  });

  it('reads a line split over several chunks, a character split between two of them', async () => {
    const { input, transport, received } = pipes();
    await transport.start();
    const bytes = Buffer.from('{"text":"h\u00e9llo \u{1f600}"}\n');
    const emoji = bytes.indexOf(0xf0);
    for (const [from, to] of [[0, 3], [3, emoji + 2], [emoji + 2, bytes.length]]) input.write(bytes.subarray(from, to));
    await tick();
    expect(received).to.deep.equal([{ text: 'h\u00e9llo \u{1f600}' }]);
  });

  it('reads string chunks (an input with an encoding set)', async () => {
    const { input, transport, received } = pipes();
    input.setEncoding('utf8');
    await transport.start();
    input.write('{"id":1}\n{"id"');
    input.write(':2}\n');
    await tick();
    expect(received).to.deep.equal([{ id: 1 }, { id: 2 }]);
  });

  context('with maxLineBytes', () => {
    const line = (bytes: number) => `{"p":"${'x'.repeat(bytes - 8)}"}`;

    it('takes a line of exactly the limit, the CR of a CRLF ending counted, and drops one byte more', async () => {
      const { input, transport, received, errors } = pipes(64);
      await transport.start();
      input.write(`${line(64)}\n${line(63)}\r\n${line(65)}\n${line(64)}\r\n{"id":"after"}\n`);
      await tick();
      expect(received).to.deep.equal([JSON.parse(line(64)), JSON.parse(line(63)), { id: 'after' }]);
      expect(errors.map((e) => e.message)).to.deep.equal(['A line longer than 64 bytes was dropped', 'A line longer than 64 bytes was dropped']);
    });

    it('drops a line that outgrows the limit over several chunks, reporting it once, as soon as it does', async () => {
      const { input, transport, received, errors } = pipes(64);
      await transport.start();
      input.write('{"id":1}\n{"pad":"');
      input.write('x'.repeat(40));
      await tick();
      expect(errors).to.deep.equal([]);
      input.write('x'.repeat(40));
      await tick();
      expect(errors).to.have.length(1);
      input.write(`${'x'.repeat(100)}"}`);
      input.write('\n{"id":2}\n');
      await tick();
      expect(errors).to.have.length(1);
      expect(received).to.deep.equal([{ id: 1 }, { id: 2 }]);
    });
  });

  describe('#send', () => {
    it('rejects a message JSON cannot carry, rather than throwing', async () => {
      const { transport } = pipes();
      await transport.start();
      const circular: Record<string, unknown> = {};
      circular.self = circular;
      let sent: Promise<void> | undefined;
      expect(() => { sent = transport.send({ jsonrpc: '2.0', id: 1, result: circular }); }).not.to.throw();
      await sent!.then(() => expect.fail('expected a rejection'), (error) => expect(error).to.be.instanceOf(TypeError));
    });

    it('rejects, rather than throwing, when the output throws from its write', async () => {
      const input = new PassThrough();
      const failure = new Error('disk gone');
      const output = new Writable({ write() { throw failure; } });
      const transport = new StdioTransport({ input, output });
      await transport.start();
      let sent: Promise<void> | undefined;
      expect(() => { sent = transport.send({ jsonrpc: '2.0', id: 1, result: {} }); }).not.to.throw();
      await sent!.then(() => expect.fail('expected a rejection'), (error) => expect(error).to.equal(failure));
    });

    it('waits for a full output to drain', async () => {
      const input = new PassThrough();
      const written: string[] = [];
      let release!: () => void;
      const output = new Writable({
        highWaterMark: 8,
        write(chunk, _encoding, callback) { written.push(String(chunk)); release = callback; },
      });
      const transport = new StdioTransport({ input, output });
      await transport.start();
      let sent = false;
      const sending = transport.send({ jsonrpc: '2.0', id: 1, result: {} }).then(() => { sent = true; });
      await tick();
      expect(written).to.deep.equal(['{"jsonrpc":"2.0","id":1,"result":{}}\n']);
      expect(sent).to.equal(false);
      release();
      await sending;
      expect(sent).to.equal(true);
    });

    it('sends nothing once closed', async () => {
      const { output, transport } = pipes();
      await transport.start();
      await transport.close();
      await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
      expect(output.read()).to.equal(null);
    });
  });

  it('closes when its input ends', async () => {
    const { input, transport } = pipes();
    let closed = false;
    transport.onclose = () => { closed = true; };
    await transport.start();
    input.end();
    await tick();
    expect(closed).to.equal(true);
  });

  context('when the output fails with EPIPE (the reader closed its end)', () => {
    it('closes instead of throwing, and reports nothing', async () => {
      const { output, transport, errors } = pipes();
      let closed = false;
      transport.onclose = () => { closed = true; };
      await transport.start();
      output.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      await tick();
      expect(closed).to.equal(true);
      expect(errors).to.deep.equal([]);
      await transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    });
  });
});
