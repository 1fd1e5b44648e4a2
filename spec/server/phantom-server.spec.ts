import 'reflect-metadata';
import { expect } from 'chai';
import { container as rootContainer, injectable } from 'tsyringe';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DefinitionError, InMemoryTransport, PhantomError, PhantomServer, Prompt, Resource, Tool, type ListKind } from '../../lib';
import { INITIALIZE, post } from '../integration/support/raw-http';

describe('PhantomServer', () => {
  @injectable()
  class Clock { now() { return 'noon'; } }

  @injectable()
  class TimeTools {
    constructor(private readonly clock: Clock) {}
    @Tool({ description: 'What time is it' }) time() { return this.clock.now(); }
  }

  describe('construction', () => {
    it('resolves providers and their services through its own child container', async () => {
      const parent = rootContainer.createChildContainer();
      parent.register(Clock, { useValue: { now: () => 'midnight' } });
      const server = new PhantomServer({ name: 's', version: '1', providers: [TimeTools], container: parent });
      expect(await server.handle('tools/call', { name: 'time' })).to.deep.equal({ result: { content: [{ type: 'text', text: 'midnight' }] } });
      expect(server.container).not.to.equal(parent);
    });

    it('keeps one provider instance per server', async () => {
      let made = 0;
      class Counter {
        constructor() { made += 1; }
        @Tool({ description: 'x' }) x() { return made; }
      }
      const a = new PhantomServer({ name: 'a', version: '1', providers: [Counter] });
      const b = new PhantomServer({ name: 'b', version: '1', providers: [Counter] });
      await a.handle('tools/call', { name: 'x' });
      await a.handle('tools/call', { name: 'x' });
      await b.handle('tools/call', { name: 'x' });
      expect(made).to.equal(2);
    });

    it('throws every definition problem at start-up', () => {
      class Bad { @Tool() a() {} @Tool() b() {} }
      expect(() => new PhantomServer({ name: 'x', version: '1', providers: [Bad] })).to.throw(DefinitionError).with.property('problems').of.length(2);
    });

    context('when the same provider is listed twice', () => {
      class Twice { @Tool({ description: 't' }) t() { return 't'; } }

      it('says so once, instead of reporting its tools as duplicates of themselves', () => {
        expect(() => new PhantomServer({ name: 'x', version: '1', providers: [Twice, Twice] }))
          .to.throw(DefinitionError).with.property('problems').that.deep.equals(['Twice is listed twice in providers']);
      });
    });

    it('carries the server info it was given', () => {
      const server = new PhantomServer({ name: 'n', version: '2', title: 'T', providers: [], instructions: 'Use me' });
      expect(server.info).to.deep.equal({ name: 'n', version: '2', title: 'T' });
      expect(server.instructions).to.equal('Use me');
    });
  });

  describe('runtime changes', () => {
    class Extra {
      @Tool({ description: 'x' }) extra() { return 'extra'; }
      @Prompt({ description: 'p' }) extraPrompt() { return 'p'; }
      @Resource('x://extra/{id}', { description: 'r' }) extraResource() { return 'r'; }
    }

    it('adds and removes definitions and reports each list change', async () => {
      const server = new PhantomServer({ name: 's', version: '1', providers: [] });
      const changes: ListKind[] = [];
      server.onListChanged((kind) => changes.push(kind));
      server.add(Extra);
      expect(await server.handle('tools/call', { name: 'extra' })).to.have.property('result');
      expect(server.removeTool('extra')).to.equal(true);
      expect(server.removeTool('extra')).to.equal(false);
      expect(server.removePrompt('extraPrompt')).to.equal(true);
      expect(server.removeResource('x://extra/{id}')).to.equal(true);
      expect(changes).to.deep.equal(['tools', 'prompts', 'resources', 'tools', 'prompts', 'resources']);
      expect(await server.handle('tools/call', { name: 'extra' })).to.have.nested.property('error.code', -32602);
      expect(await server.handle('resources/read', { uri: 'x://extra/1' })).to.have.nested.property('error.code', -32002);
      expect(await server.handle('tools/list')).to.deep.equal({ result: { tools: [] } });
    });

    it('refuses a second definition of a served name, adding nothing', async () => {
      const server = new PhantomServer({ name: 's', version: '1', providers: [Extra] });
      class Clash { @Tool({ description: 'x', name: 'extra' }) other() {} @Tool({ description: 'y' }) fresh() {} }
      expect(() => server.add(Clash)).to.throw(DefinitionError, /tool "extra" is already registered/);
      expect(await server.handle('tools/call', { name: 'fresh' })).to.have.nested.property('error.code', -32602);
    });
  });

  describe('#close', () => {
    class Echo { @Tool({ description: 'e' }) echo() { return 'e'; } }

    it('closes every listener, handler and connection it made', async () => {
      const server = new PhantomServer({ name: 's', version: '1', providers: [Echo] });
      const listener = await server.listen({ port: 0 });
      const handler = server.httpHandler();
      const host = createServer((req, res) => void handler.handle(req, res));
      await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
      const mounted = `http://127.0.0.1:${(host.address() as AddressInfo).port}/mcp`;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const connection = await server.connect(serverSide);
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(clientSide);
      let clientClosed = false;
      client.onclose = () => { clientClosed = true; };
      await server.close();
      await connection.done;
      expect(clientClosed).to.equal(true);
      expect(listener.server.listening).to.equal(false);
      expect((await post(mounted, INITIALIZE)).status).to.equal(503);
      host.closeAllConnections();
      await new Promise((resolve) => host.close(resolve));
    });

    it('serves no new transport once closed', async () => {
      const server = new PhantomServer({ name: 's', version: '1', providers: [Echo] });
      await server.close();
      const [, serverSide] = InMemoryTransport.createLinkedPair();
      for (const started of [server.connect(serverSide), server.listen({ port: 0 })]) {
        const error = await started.then(() => expect.fail('expected a refusal'), (refusal: PhantomError) => refusal);
        expect(error).to.be.instanceOf(PhantomError).and.include({ code: 'server_closed' });
      }
      expect(() => server.httpHandler()).to.throw(PhantomError, /closed/);
    });

    it('returns the same promise when called again', async () => {
      const server = new PhantomServer({ name: 's', version: '1', providers: [Echo] });
      expect(server.close()).to.equal(server.close());
      await server.close();
    });
  });
});
