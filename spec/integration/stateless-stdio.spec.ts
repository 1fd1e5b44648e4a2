import { expect } from 'chai';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { meta } from './support/stateless-client';

const SAMPLE = join(__dirname, '..', '..', 'samples', '04-elicitation', 'main.js');

/** Raw JSON lines to a sample over stdio, as a 2026-07-28 client writes them. */
class StdioPeer {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Map<unknown, (message: any) => void>();
  readonly notifications: any[] = [];

  constructor(script: string) {
    this.child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      const message = JSON.parse(line);
      if ('id' in message && this.waiting.has(message.id)) this.waiting.get(message.id)!(message);
      else this.notifications.push(message);
    });
  }

  request(id: number, method: string, params: Record<string, unknown>): Promise<any> {
    const answer = new Promise((resolve) => this.waiting.set(id, resolve));
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answer;
  }

  close(): void {
    this.child.stdin.end();
  }
}

describe('stateless era over stdio', () => {
  let peer: StdioPeer;
  before(() => { peer = new StdioPeer(SAMPLE); });
  after(() => peer.close());

  it('answers server/discover without a handshake', async () => {
    const reply = await peer.request(1, 'server/discover', { _meta: meta() });
    expect(reply.result).to.include({ resultType: 'complete' });
    expect(reply.result.supportedVersions).to.deep.equal(['2026-07-28']);
  });

  it('runs the elicitation sample tool in two rounds', async () => {
    const caps = { elicitation: {} };
    const first = await peer.request(2, 'tools/call', { _meta: meta(caps), name: 'greet' });
    expect(first.result.resultType).to.equal('input_required');
    const [key] = Object.keys(first.result.inputRequests);
    const second = await peer.request(3, 'tools/call', {
      _meta: meta(caps), name: 'greet', requestState: first.result.requestState,
      inputResponses: { [key]: { action: 'accept', content: { name: 'Ada', email: 'ada@example.com', role: 'pm' } } },
    });
    expect(second.result).to.deep.include({ resultType: 'complete', content: [{ type: 'text', text: 'Hello Ada' }] });
  });

  it('answers validation errors by code, with no HTTP layer', async () => {
    expect((await peer.request(4, 'tools/list', {})).error.code).to.equal(-32602);
    expect((await peer.request(5, 'tools/list', { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': 'v9' }) })).error.code).to.equal(-32022);
    expect((await peer.request(6, 'ping', { _meta: meta() })).error.code).to.equal(-32601);
  });

  it('acknowledges a listen stream and ends it on notifications/cancelled', async () => {
    const acknowledged = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (peer.notifications.some((n) => n.method === 'notifications/subscriptions/acknowledged')) { clearInterval(poll); resolve(); }
      }, 5);
    });
    const closing = peer.request(7, 'subscriptions/listen', { _meta: meta(), notifications: { toolsListChanged: true } });
    await acknowledged;
    expect(peer.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged').params._meta).to.deep.equal({ 'io.modelcontextprotocol/subscriptionId': 7 });
    (peer as any).child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } })}\n`);
    const outcome = await Promise.race([closing.then(() => 'answered'), new Promise((r) => setTimeout(() => r('silent'), 100))]);
    expect(outcome).to.equal('silent');
  });
});
