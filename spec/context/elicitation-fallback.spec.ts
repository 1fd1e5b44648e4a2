import 'reflect-metadata';
import { expect } from 'chai';
import { IsEmail, IsString } from 'class-validator';
import { CallEndedSignal, Context, Elicit, Field, ToolError } from '../../lib';
import type { ElicitationFallback, FallbackElicitation } from '../../lib/entries/extensions';
import { FakeChannel } from './fake-channel';

@Elicit({ message: 'Who are you?' })
class Who {
  @Field({ title: 'Name' }) @IsString() name!: string;
  @Field({ title: 'Email' }) @IsEmail() email!: string;
}

/** A fallback that answers from a table by key, and records what it was asked. */
class TableFallback implements ElicitationFallback {
  readonly asked: FallbackElicitation[] = [];
  readonly invalids: [string, readonly string[]][] = [];
  constructor(private readonly answers: Record<string, object>, private readonly onInvalid?: 'end') {}

  async elicit(request: FallbackElicitation) {
    this.asked.push(request);
    const answer = this.answers[request.key];
    if (answer === undefined) throw new CallEndedSignal({ content: [{ type: 'text', text: `asked ${request.key}` }] });
    return answer as Record<string, unknown>;
  }

  invalid(request: FallbackElicitation, issues: readonly string[]) {
    this.invalids.push([request.key, issues]);
    if (this.onInvalid === 'end') throw new CallEndedSignal({ content: [{ type: 'text', text: 'again' }] });
  }
}

describe('Context', () => {
  describe('#elicit with an elicitation fallback', () => {
    const contextWith = (fallback: ElicitationFallback, clientCapabilities = {}) => new Context({ channel: new FakeChannel(), clientCapabilities, elicitationFallback: fallback });

    it('asks the fallback, not the client, when the client cannot elicit forms, and hands back a validated instance', async () => {
      const fallback = new TableFallback({ 'elicit-1': { action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } } });
      const answer = await contextWith(fallback).elicit(Who);
      expect(answer.action).to.equal('accept');
      expect(answer.action === 'accept' && answer.content).to.be.instanceOf(Who).and.deep.include({ name: 'Ada' });
      expect(fallback.asked.map(({ message, key }) => [message, key])).to.deep.equal([['Who are you?', 'elicit-1']]);
      expect(fallback.asked[0].requestedSchema).to.deep.include({ type: 'object', required: ['name', 'email'] });
    });

    it('numbers the forms it asks, and keeps a key the handler names', async () => {
      const fallback = new TableFallback({ 'elicit-1': { action: 'decline' }, mine: { action: 'cancel' }, 'elicit-2': { action: 'decline' } });
      const ctx = contextWith(fallback);
      expect([await ctx.elicit(Who), await ctx.elicit(Who, { key: 'mine' }), await ctx.elicit(Who)]).to.deep.equal([{ action: 'decline' }, { action: 'cancel' }, { action: 'decline' }]);
      expect(fallback.asked.map(({ key }) => key)).to.deep.equal(['elicit-1', 'mine', 'elicit-2']);
    });

    it('validates the content as a client answer: the fallback hears the issues, then a ToolError names the field', async () => {
      const fallback = new TableFallback({ 'elicit-1': { action: 'accept', content: { name: 'Ada', email: 'not an email' } } });
      const failure = await contextWith(fallback).elicit(Who).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(ToolError);
      expect((failure as Error).message).to.contain('email');
      expect(fallback.invalids.map(([key, issues]) => [key, issues.some((issue) => issue.includes('email'))])).to.deep.equal([['elicit-1', true]]);
    });

    it('lets the fallback end the call on invalid content instead', async () => {
      const fallback = new TableFallback({ 'elicit-1': { action: 'accept', content: { name: 42 } } }, 'end');
      const failure = await contextWith(fallback).elicit(Who).catch((error: unknown) => error);
      expect(failure).to.be.instanceOf(CallEndedSignal);
      expect((failure as CallEndedSignal).result.content).to.deep.equal([{ type: 'text', text: 'again' }]);
    });

    it('refuses a malformed reply as a malformed client answer', async () => {
      const fallback = new TableFallback({ 'elicit-1': { action: 'maybe' } });
      const failure = await contextWith(fallback).elicit(Who).catch((error: unknown) => error);
      expect((failure as Error).name).to.equal('ClientError');
    });

    it('is not asked when the client elicits forms itself, for a URL elicitation, or for a call that opts out', async () => {
      const fallback = new TableFallback({});
      const channel = new FakeChannel(() => ({ action: 'decline' }));
      expect(await new Context({ channel, clientCapabilities: { elicitation: { form: {} } }, elicitationFallback: fallback }).elicit(Who)).to.deep.equal({ action: 'decline' });
      const ctx = contextWith(fallback);
      expect(await ctx.elicit(Elicit.url({ message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e1' }))).to.deep.equal({ action: 'unsupported' });
      expect(await ctx.elicit(Who, { fallback: false })).to.deep.equal({ action: 'unsupported' });
      expect(fallback.asked).to.deep.equal([]);
    });
  });
});
