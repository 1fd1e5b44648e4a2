import 'reflect-metadata';
import { expect } from 'chai';
import { IsString } from 'class-validator';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Context, Elicit, Field, InMemoryTransport, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { StatelessEraTransport } from '../../lib/testing/stateless-era.transport';
import { textOf } from 'phantom-mcp/testing';
import { call, meta } from './support/stateless-client';

@Elicit({ message: 'Which colour?' })
class Colour {
  @Field({ title: 'Colour' }) @IsString() colour!: string;
}

/** Paints once it knows the colour, and says for whom. */
class Painter {
  painted = 0;

  @Tool({ description: 'Paints once it knows the colour' })
  async paint(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Colour);
    if (answer.action !== 'accept') return answer.action;
    this.painted += 1;
    return `painted ${answer.content.colour} for ${(ctx.principal as { user?: string } | undefined)?.user ?? 'nobody'}`;
  }
}

const TEAL = { action: 'accept', content: { colour: 'teal' } } as const;
const REFUSED = 'Invalid requestState: requestState belongs to another principal';

/**
 * The official client on a pipe the server binds to `principal`, speaking 2026-07-28 through the
 * testing kit's transport, with every message it sends recorded: its retry carries the
 * `requestState` the server sealed for that principal.
 */
async function officialClient(server: PhantomServer, principal: unknown) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide, principal);
  const sent: any[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message) => { sent.push(message); return send(message); };
  const clientInfo = { name: 'painter-client', version: '1' };
  const capabilities = { elicitation: {} };
  const client = new Client(clientInfo, { capabilities });
  await client.connect(new StatelessEraTransport(clientSide, { clientInfo, capabilities, answers: { elicit: TEAL }, maxRounds: 10 }));
  return { client, sent };
}

/** A hand-driven 2026-07-28 peer on a pipe bound to `principal`: for replaying what another sent. */
async function rawPipe(server: PhantomServer, principal?: unknown) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide, principal);
  const waiting = new Map<unknown, (message: any) => void>();
  clientSide.onmessage = (message: any) => waiting.get(message.id)?.(message);
  await clientSide.start();
  let nextId = 100;
  return {
    /** Sends `request` again under a fresh id and resolves with its response. */
    replay: (request: { method: string; params: unknown }): Promise<any> => {
      const id = nextId++;
      const answered = new Promise((resolve) => waiting.set(id, resolve));
      void clientSide.send({ jsonrpc: '2.0', id, method: request.method, params: request.params });
      return answered;
    },
    close: () => clientSide.close(),
  };
}

describe('requestState bound to its principal (stateless era)', () => {
  context('on pipes the server binds to a principal', () => {
    let server: PhantomServer;
    let painter: Painter;
    let retry: { method: string; params: any };
    let closeAlice: () => Promise<void>;

    before(async () => {
      server = new PhantomServer({ name: 'p', version: '1', providers: [Painter], diagnostics: SILENT_DIAGNOSTICS });
      painter = server.container.resolve(Painter);
      const alice = await officialClient(server, { user: 'alice' });
      closeAlice = () => alice.client.close();
      expect(textOf(await alice.client.callTool({ name: 'paint' }))).to.equal('painted teal for alice');
      retry = alice.sent.find((message) => message.method === 'tools/call' && message.params.requestState !== undefined);
      expect(retry, 'the official client\'s retry, carrying the requestState').to.not.equal(undefined);
    });

    after(async () => {
      await closeAlice();
      await server.close();
    });

    context('when another principal replays the retry the official client sent', () => {
      it('refuses it with -32602 and does not run the tool', async () => {
        const bob = await rawPipe(server, { user: 'bob' });
        const before = painter.painted;
        const reply = await bob.replay(retry);
        expect(reply.error).to.deep.include({ code: -32602, message: REFUSED });
        expect(painter.painted).to.equal(before);
        await bob.close();
      });
    });

    context('when a caller with no principal replays it', () => {
      it('refuses it with -32602', async () => {
        const anonymous = await rawPipe(server);
        expect((await anonymous.replay(retry)).error).to.deep.include({ code: -32602, message: REFUSED });
        await anonymous.close();
      });
    });

    context('when the same principal sends it again on another connection', () => {
      it('continues the request: the state is bound to who sent it, not to the connection', async () => {
        const alice = await rawPipe(server, { user: 'alice' });
        const reply = await alice.replay(retry);
        expect(reply.result.content).to.deep.equal([{ type: 'text', text: 'painted teal for alice' }]);
        await alice.close();
      });
    });
  });

  context('over HTTP, with the principal the authenticate hook gives each bearer token', () => {
    let server: PhantomServer;
    let listener: HttpListener;
    const USERS: Record<string, string> = { 'Bearer alice-token': 'alice', 'Bearer alice-refreshed': 'alice', 'Bearer bob-token': 'bob' };

    before(async () => {
      server = new PhantomServer({ name: 'p', version: '1', providers: [Painter], diagnostics: SILENT_DIAGNOSTICS });
      listener = await server.listen({
        port: 0,
        authenticate: ({ headers }) => {
          const user = USERS[String(headers.authorization)];
          return user ? { allow: true, principal: { user } } : { allow: false, status: 401, wwwAuthenticate: 'Bearer realm="mcp"' };
        },
      });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    /** Alice's first round, and the retry that answers it with the state the server sealed for her. */
    async function aliceRetry(): Promise<Record<string, unknown>> {
      const elicit = { elicitation: {} };
      const first = await call(listener.url, 'tools/call', { _meta: meta(elicit), name: 'paint' }, { authorization: 'Bearer alice-token' });
      expect(first.body.result.resultType).to.equal('input_required');
      const [key] = Object.keys(first.body.result.inputRequests);
      return { _meta: meta(elicit), name: 'paint', inputResponses: { [key]: TEAL }, requestState: first.body.result.requestState };
    }

    context('when another principal sends a retry with a requestState sealed for alice', () => {
      it('refuses it with -32602, and still serves that caller', async () => {
        const retry = await aliceRetry();
        const replayed = await call(listener.url, 'tools/call', retry, { authorization: 'Bearer bob-token' });
        expect(replayed.body.error).to.deep.include({ code: -32602, message: REFUSED });
        const own = await call(listener.url, 'tools/list', { _meta: meta() }, { authorization: 'Bearer bob-token' });
        expect(own.body.result.tools.map((tool: { name: string }) => tool.name)).to.deep.equal(['paint']);
      });
    });

    context('when alice sends it with another token that names her', () => {
      it('continues the request', async () => {
        const retry = await aliceRetry();
        const continued = await call(listener.url, 'tools/call', retry, { authorization: 'Bearer alice-refreshed' });
        expect(continued.body.result.content).to.deep.equal([{ type: 'text', text: 'painted teal for alice' }]);
      });
    });
  });
});
