import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { PhantomError, PhantomServer, SILENT_DIAGNOSTICS, Tool, type Context } from '../../lib';
import { connect } from 'phantom-mcp/testing';

/** What one call of `Waiter#wait` saw: when it started sleeping, and how its sleep ended. */
class Sightings {
  started!: Promise<AbortSignal>;
  ended!: Promise<unknown>;
  private onStart!: (signal: AbortSignal) => void;
  private onEnd!: (outcome: unknown) => void;

  constructor() {
    this.reset();
  }

  reset(): void {
    this.started = new Promise((resolve) => { this.onStart = resolve; });
    this.ended = new Promise((resolve) => { this.onEnd = resolve; });
  }

  async watch(ctx: Context, ms: number): Promise<void> {
    const slept = ctx.sleep(ms);
    this.onStart(ctx.signal);
    await slept.then(() => this.onEnd('slept'), (error: unknown) => this.onEnd(error));
    await slept;
  }
}

const seen = new Sightings();

class Waiter {
  @Tool({ description: 'Waits a minute' })
  async wait(_args: object, ctx: Context) {
    await seen.watch(ctx, 60_000);
    return 'waited';
  }

  @Tool({ description: 'Waits 50 times' })
  async steps(_args: object, ctx: Context) {
    for (let i = 0; i < 50; i++) await ctx.sleep(0);
    return `${getEventListeners(ctx.signal, 'abort').length} listeners`;
  }
}

describe('Context', () => {
  describe('#sleep', () => {
    let client: Client;
    let server: PhantomServer;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => { warnings.push(warning); };

    before(async () => {
      process.on('warning', onWarning);
      server = new PhantomServer({ name: 'waiter', version: '1', providers: [Waiter], diagnostics: SILENT_DIAGNOSTICS });
      client = await connect(server);
    });
    after(async () => {
      process.off('warning', onWarning);
      await client.close();
      await server.close();
    });
    beforeEach(() => seen.reset());

    context('when the client cancels the call (notifications/cancelled)', () => {
      it('rejects with a PhantomError coded cancelled and leaves no listener on the signal', async () => {
        const controller = new AbortController();
        const call = client.callTool({ name: 'wait' }, undefined, { signal: controller.signal }).catch((e: unknown) => e);
        const signal = await seen.started;
        controller.abort('the user gave up');
        const ended = (await seen.ended) as PhantomError;
        expect(ended).to.be.instanceOf(PhantomError);
        expect(ended.code).to.equal('cancelled');
        expect(signal.aborted).to.equal(true);
        expect(getEventListeners(signal, 'abort')).to.have.length(0);
        expect(await call).to.be.instanceOf(Error);
      });

      it('reports nothing to the diagnostics when the rejection ends the tool', async () => {
        const own: string[] = [];
        const quiet = new PhantomServer({ name: 'waiter', version: '1', providers: [Waiter], diagnostics: { error: (m) => { own.push(m); }, warn: (m) => { own.push(m); } } });
        const other = await connect(quiet);
        const controller = new AbortController();
        const call = other.callTool({ name: 'wait' }, undefined, { signal: controller.signal }).catch(() => undefined);
        await seen.started;
        controller.abort('the user gave up');
        await call;
        await other.close();
        await quiet.close(); // lets the cancelled call finish, its failure included
        expect(own).to.deep.equal([]);
      });
    });

    context('when a handler sleeps 50 times on one call', () => {
      it('holds no listener afterwards, and Node warns of no leak', async () => {
        const result = await client.callTool({ name: 'steps' });
        expect(result.content).to.deep.equal([{ type: 'text', text: '0 listeners' }]);
        expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).to.deep.equal([]);
      });
    });
  });
});
