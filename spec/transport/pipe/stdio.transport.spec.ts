import { expect } from 'chai';
import { PassThrough } from 'node:stream';
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
