import 'reflect-metadata';
import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import { IsEmail, IsIn, IsString } from 'class-validator';
import { Context, ContextKey, Elicit, Field, PhantomError, ServerClosingError, ToolError } from '../../lib';
import { FakeChannel } from './fake-channel';

@Elicit({ message: 'Who are you?' })
class Who {
  @Field({ title: 'Name' }) @IsString() name!: string;
  @Field({ title: 'Email' }) @IsEmail() email!: string;
  @Field({ title: 'Role', oneOf: { dev: 'Developer', pm: 'Product Manager' } }) @IsIn(['dev', 'pm']) role = 'dev';
}

const FORM_AND_URL = { elicitation: { form: {}, url: {} } };

describe('Context', () => {
  describe('#get and #set', () => {
    const USER = new ContextKey<{ name: string }>('user');

    it('keeps per-request data under a typed key', () => {
      const ctx = new Context();
      expect(ctx.has(USER)).to.equal(false);
      expect(ctx.get(USER)).to.equal(undefined);
      ctx.set(USER, { name: 'Ada' });
      expect(ctx.has(USER)).to.equal(true);
      expect(ctx.get(USER)).to.deep.equal({ name: 'Ada' });
    });

    it('tells keys apart by identity, not by description, and requests apart', () => {
      const other = new ContextKey<{ name: string }>('user');
      const ctx = new Context();
      ctx.set(USER, { name: 'Ada' });
      expect(ctx.get(other)).to.equal(undefined);
      expect(new Context().get(USER)).to.equal(undefined);
    });
  });

  describe('#progress', () => {
    it('sends progress tied to the request token', async () => {
      const channel = new FakeChannel();
      await new Context({ channel, progressToken: 'p1' }).progress(1, 2, 'half');
      expect(channel.notifications).to.deep.equal([
        { method: 'notifications/progress', params: { progressToken: 'p1', progress: 1, total: 2, message: 'half' } },
      ]);
    });

    it('sends nothing when the client asked for no progress', async () => {
      const channel = new FakeChannel();
      await new Context({ channel }).progress(1);
      expect(channel.notifications).to.deep.equal([]);
    });
  });

  describe('#sleep', () => {
    const listeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

    context('when the time runs out', () => {
      it('resolves, and takes its listener off the signal', async () => {
        const controller = new AbortController();
        const ctx = new Context({ signal: controller.signal });
        const slept = ctx.sleep(1);
        expect(listeners(controller.signal)).to.equal(1);
        expect(await slept).to.equal(undefined);
        expect(listeners(controller.signal)).to.equal(0);
      });

      it('leaves no listener behind after 50 sleeps in a row', async () => {
        const controller = new AbortController();
        const ctx = new Context({ signal: controller.signal });
        for (let i = 0; i < 50; i++) await ctx.sleep(0);
        expect(listeners(controller.signal)).to.equal(0);
      });

      it('resolves without a signal to listen to', async () => {
        expect(await new Context().sleep(0)).to.equal(undefined);
      });
    });

    context('when the call is cancelled while it waits', () => {
      it('rejects with the reason, when it is an Error, and takes its listener off', async () => {
        const controller = new AbortController();
        const ctx = new Context({ signal: controller.signal });
        const slept = ctx.sleep(60_000).catch((e: unknown) => e);
        const reason = new ServerClosingError();
        controller.abort(reason);
        expect(await slept).to.equal(reason);
        expect(listeners(controller.signal)).to.equal(0);
      });

      it('rejects with a PhantomError coded cancelled that keeps any other reason as its cause', async () => {
        const controller = new AbortController();
        const slept = new Context({ signal: controller.signal }).sleep(60_000).catch((e: unknown) => e);
        controller.abort('cancelled by the client');
        const error = (await slept) as PhantomError;
        expect(error).to.be.instanceOf(PhantomError);
        expect(error.code).to.equal('cancelled');
        expect(error.message).to.equal('Cancelled: cancelled by the client');
        expect(error.cause).to.equal('cancelled by the client');
      });
    });

    context('when the call was cancelled before', () => {
      it('rejects at once, adding no listener', async () => {
        const controller = new AbortController();
        const reason = new Error('gone');
        controller.abort(reason);
        const slept = new Context({ signal: controller.signal }).sleep(60_000).catch((e: unknown) => e);
        expect(listeners(controller.signal)).to.equal(0);
        expect(await slept).to.equal(reason);
      });
    });

    context('when ms is not a usable number of milliseconds', () => {
      for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5' as unknown as number]) {
        it(`rejects ${String(ms)} with sleep_invalid`, async () => {
          const error = (await new Context().sleep(ms).catch((e: unknown) => e)) as PhantomError;
          expect(error).to.be.instanceOf(PhantomError);
          expect(error.code).to.equal('sleep_invalid');
        });
      }
    });
  });

  describe('#log', () => {
    it('sends messages at or above the client level only', async () => {
      const channel = new FakeChannel(undefined, 'warning');
      const ctx = new Context({ channel });
      await ctx.log.info('quiet');
      await ctx.log.error({ code: 7 }, 'db');
      expect(channel.notifications).to.deep.equal([
        { method: 'notifications/message', params: { level: 'error', data: { code: 7 }, logger: 'db' } },
      ]);
    });

    it('sends everything when no level was set', async () => {
      const channel = new FakeChannel();
      await new Context({ channel }).log.debug('d');
      expect(channel.notifications).to.have.length(1);
    });
  });

  describe('#elicit', () => {
    context('when the client accepts a form class', () => {
      it('sends the compiled form and returns a validated instance', async () => {
        const channel = new FakeChannel(() => ({ action: 'accept', content: { name: 'Ada', email: 'ada@example.com', role: 'pm' } }));
        const answer = await new Context({ channel, clientCapabilities: FORM_AND_URL }).elicit(Who);
        expect(channel.requests[0].method).to.equal('elicitation/create');
        expect(channel.requests[0].params).to.include({ mode: 'form', message: 'Who are you?' });
        expect(answer.action).to.equal('accept');
        if (answer.action !== 'accept') return;
        expect(answer.content).to.be.instanceOf(Who);
        expect(answer.content.name).to.equal('Ada');
      });
    });

    context('when the accepted content breaks the form rules', () => {
      it('fails the call with a tool error naming the property', async () => {
        const channel = new FakeChannel(() => ({ action: 'accept', content: { name: 'Ada', email: 'not-an-email', role: 'pm' } }));
        const failure = await new Context({ channel, clientCapabilities: FORM_AND_URL }).elicit(Who).catch((e: unknown) => e);
        expect(failure).to.be.instanceOf(ToolError);
        expect((failure as Error).message).to.match(/email/);
      });
    });

    for (const action of ['decline', 'cancel'] as const) {
      context(`when the user chooses ${action}`, () => {
        it(`returns ${action}`, async () => {
          const channel = new FakeChannel(() => ({ action }));
          expect(await new Context({ channel, clientCapabilities: FORM_AND_URL }).elicit(Who)).to.deep.equal({ action });
        });
      });
    }

    context('when the client never answers', () => {
      it('returns timeout', async () => {
        const channel = new FakeChannel(() => 'timeout');
        expect(await new Context({ channel, clientCapabilities: FORM_AND_URL, requestTimeoutMs: 5 }).elicit(Who)).to.deep.equal({ action: 'timeout' });
        expect(channel.requests[0].options.timeoutMs).to.equal(5);
      });
    });

    context('when the client declared no elicitation', () => {
      it('sends nothing and returns unsupported', async () => {
        const channel = new FakeChannel();
        expect(await new Context({ channel }).elicit(Who)).to.deep.equal({ action: 'unsupported' });
        expect(channel.requests).to.deep.equal([]);
      });
    });

    context('when the client declared form mode only', () => {
      const url = Elicit.url({ message: 'Sign in', url: 'https://example.com/a?e=1', elicitationId: 'e1' });

      it('treats a bare elicitation capability as form mode', async () => {
        const channel = new FakeChannel(() => ({ action: 'decline' }));
        expect(await new Context({ channel, clientCapabilities: { elicitation: {} } }).elicit(Who)).to.deep.equal({ action: 'decline' });
        expect(await new Context({ channel, clientCapabilities: { elicitation: {} } }).elicit(url)).to.deep.equal({ action: 'unsupported' });
      });

      it('sends URL mode when the client declared it', async () => {
        const channel = new FakeChannel(() => ({ action: 'accept' }));
        expect(await new Context({ channel, clientCapabilities: FORM_AND_URL }).elicit(url)).to.deep.equal({ action: 'accept', content: undefined });
        expect(channel.requests[0].params).to.deep.equal({ mode: 'url', message: 'Sign in', url: 'https://example.com/a?e=1', elicitationId: 'e1' });
      });
    });
  });

  describe('#sample and #listRoots', () => {
    it('needs the client capability', async () => {
      const ctx = new Context({ channel: new FakeChannel() });
      expect(await ctx.sample({}).catch((e: PhantomError) => e.code)).to.equal('client_capability_missing');
      expect(await ctx.listRoots().catch((e: PhantomError) => e.code)).to.equal('client_capability_missing');
    });

    it('asks the client', async () => {
      const sampled = { role: 'assistant', content: { type: 'text', text: 'hi' } };
      const channel = new FakeChannel((method) => (method === 'roots/list' ? { roots: [{ uri: 'file:///a' }] } : sampled));
      const ctx = new Context({ channel, clientCapabilities: { sampling: {}, roots: {} } });
      expect(await ctx.listRoots()).to.deep.equal([{ uri: 'file:///a' }]);
      expect(await ctx.sample({ messages: [] })).to.deep.equal(sampled);
    });
  });

  describe('without a transport', () => {
    it('says it is not connected', async () => {
      const ctx = new Context({ progressToken: 1 });
      expect(await ctx.progress(1).catch((e: PhantomError) => e.code)).to.equal('not_connected');
      expect(await ctx.resourceUpdated('x://a').catch((e: PhantomError) => e.code)).to.equal('not_connected');
    });
  });
});
