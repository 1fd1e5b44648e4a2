import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { PhantomError } from 'phantom-mcp';
import { connect, STATELESS_VERSION, structuredOf, testContext, textOf } from 'phantom-mcp/testing';
import { BrokenTools, CountdownTools, createServer, problemsOf } from '../../../docs/examples/server-and-context';

describe('docs/examples/server-and-context.ts (the server and Context reference)', () => {
  describe('the server options', () => {
    let client: Client;

    beforeEach(async () => {
      client = await connect(createServer());
    });

    afterEach(async () => {
      await client.close();
    });

    it('tells the client its name, title, description and instructions at initialisation', () => {
      expect(client.getServerVersion()).to.deep.include({ name: 'countdown', version: '1.0.0', title: 'Countdown', description: 'Counts down, and says who is calling' });
      expect(client.getInstructions()).to.equal('Use countdown for timers of up to ten seconds.');
    });

    it('pages tools/list by pageSize', async () => {
      const first = await client.listTools();
      expect(first.tools.map((tool) => tool.name)).to.deep.equal(['countdown']);
      expect(first.nextCursor).to.be.a('string');
      const second = await client.listTools({ cursor: first.nextCursor });
      expect(second.tools.map((tool) => tool.name)).to.deep.equal(['whoami']);
      expect(second.nextCursor).to.equal(undefined);
    });
  });

  describe('the Context', () => {
    it('sends the log line and the progress the client asked for, and reads what the guard stored', async () => {
      const client = await connect(createServer());
      try {
        const logs: unknown[] = [];
        client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
          logs.push(notification.params.data);
        });
        const progress: Progress[] = [];
        const result = await client.callTool({ name: 'countdown', arguments: { from: 1 } }, undefined, { onprogress: (step) => progress.push(step) });
        expect(structuredOf(result)).to.deep.equal({ done: 1, since: true });
        expect(progress).to.deep.equal([{ progress: 0, total: 1, message: '1 to go' }]);
        expect(logs).to.deep.equal(['counting down from 1']);
      } finally {
        await client.close();
      }
    });

    it('rejects ctx.sleep with a PhantomError coded cancelled once the call is cancelled', async () => {
      const aborted = new AbortController();
      aborted.abort('the user pressed stop');
      const { ctx, progress, logs } = testContext({ signal: aborted.signal });
      const failure = await new CountdownTools().countdown({ from: 3 }, ctx).then(() => undefined, (error: unknown) => error);
      expect(failure).to.be.instanceOf(PhantomError);
      expect((failure as PhantomError).code).to.equal('cancelled');
      expect((failure as PhantomError).cause).to.equal('the user pressed stop');
      expect(progress).to.deep.equal([{ progress: 0, total: 3, message: '3 to go' }]);
      expect(logs.map((log) => [log.level, log.data])).to.deep.equal([['info', 'counting down from 3']]);
    });

    for (const [era, version, session] of [['session', '2025-11-25', true], ['stateless', STATELESS_VERSION, false]] as const) {
      it(`says the ${era} era, its protocol version and whether there is a session`, async () => {
        const client = await connect(createServer(), { era });
        try {
          const result = await client.callTool({ name: 'whoami', arguments: {} });
          expect(structuredOf(result)).to.deep.include({ era, protocolVersion: version, session });
        } finally {
          await client.close();
        }
      });
    }

    it('has no era in-process (server.handle), where the tool answers with its ToolError', async () => {
      const outcome = await createServer().handle('tools/call', { name: 'whoami', arguments: {} }) as { result: { isError?: boolean } };
      expect(outcome.result.isError).to.equal(true);
      expect(textOf(outcome.result as never)).to.equal('Call me from a client');
    });
  });

  describe('definitions checked at start-up', () => {
    it('throws one DefinitionError listing every problem, each labelled Class#method', () => {
      expect(problemsOf([BrokenTools])).to.deep.equal([
        'BrokenTools#countdown: tool name "count down" must match ^[A-Za-z0-9_.-]{1,64}$',
        'duplicate tool name "twice": BrokenTools#first, BrokenTools#second',
      ]);
      expect(problemsOf([CountdownTools])).to.deep.equal([]);
    });
  });
});
