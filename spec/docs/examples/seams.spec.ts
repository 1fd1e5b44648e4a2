import 'reflect-metadata';
import { expect } from 'chai';
import { PhantomError, PhantomServer } from '../../../lib';
import { redis } from '../../../lib/entries/redis';
import { connect, textOf } from '../../../lib/testing';
import { CountingSessionStore, createServer, Notes, RecordingBus, replica } from '../../../docs/examples/seams';

// docs/concepts/seams.md, as the page tells it: the server uses the stores it is given, the
// stateless era needs no session store, server-wide events go over the bus, and a shared backend
// connects only when the server starts.
describe('docs/examples/seams.ts (the seams)', () => {
  context('in the session era', () => {
    it('keeps the session in the given store: saved once, then loaded and changed through update', async () => {
      const sessions = new CountingSessionStore();
      const server = createServer(sessions, new RecordingBus());
      const client = await connect(server);
      expect(textOf(await client.callTool({ name: 'add', arguments: { text: 'milk' } }))).to.equal('1 notes');
      expect(sessions.calls.save).to.equal(1);
      expect(sessions.calls.load).to.be.greaterThan(0);
      expect(sessions.calls.update).to.be.greaterThan(0); // notifications/initialized
      expect(await sessions.count()).to.equal(1);
      await client.close();
      await server.close();
    });
  });

  context('in the stateless era', () => {
    it('never asks the session store anything', async () => {
      const sessions = new CountingSessionStore();
      const server = createServer(sessions, new RecordingBus());
      const client = await connect(server, { era: 'stateless' });
      expect(textOf(await client.callTool({ name: 'add', arguments: { text: 'milk' } }))).to.equal('1 notes');
      expect(sessions.calls).to.deep.equal({ load: 0, save: 0, update: 0, delete: 0, touch: 0 });
      await client.close();
      await server.close();
    });
  });

  it('sends resource updates and list changes over the given bus', async () => {
    const bus = new RecordingBus();
    const server = createServer(new CountingSessionStore(), bus);
    const client = await connect(server);
    await server.resourceUpdated('notes://all');
    server.removeTool('add');
    await client.close();
    await server.close();
    expect(bus.broadcasts).to.deep.include.members([
      { kind: 'resource-updated', uri: 'notes://all' },
      { kind: 'list-changed', list: 'tools' },
    ]);
  });

  it('takes a shared backend or separate stores, not both', () => {
    const both = () => new PhantomServer({
      name: 'notes', version: '1.0.0', providers: [Notes], store: redis('redis://127.0.0.1:1'), sessionStore: new CountingSessionStore(),
    });
    expect(both).to.throw(PhantomError).with.property('code', 'store_conflict');
  });

  it('makes a replica without connecting, and fails at start when Redis cannot be reached', async () => {
    const server = replica('redis://127.0.0.1:1');
    const started = await server.start().then(() => 'started', (error: unknown) => error);
    expect(started).to.be.instanceOf(Error);
    expect(String((started as Error).message)).to.contain('127.0.0.1:1');
    await server.close();
  });
});
