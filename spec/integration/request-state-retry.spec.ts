import 'reflect-metadata';
import { expect } from 'chai';
import { IsString } from 'class-validator';
import { Context, Elicit, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool } from '../../lib';
import type { HttpListener } from '../../lib/entries/http';
import { call, meta } from './support/stateless-client';

@Elicit({ message: 'Which colour?' })
class Colour {
  @Field({ title: 'Colour' }) @IsString() colour!: string;
}

/** Names its inputs after members every plain object has. */
class Keyed {
  @Tool({ description: 'Asks for two colours under keys named like Object.prototype members' })
  async pair(_args: object, ctx: Context) {
    const [first, second] = await Promise.all([ctx.elicit(Colour, { key: 'constructor' }), ctx.elicit(Colour, { key: 'toString' })]);
    if (first.action !== 'accept' || second.action !== 'accept') return 'declined';
    return `${first.content.colour} and ${second.content.colour}`;
  }
}

class Painter {
  painted = 0;

  @Tool({ description: 'Paints once it knows the colour' })
  async paint(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Colour);
    if (answer.action !== 'accept') return answer.action;
    this.painted += 1;
    return `painted ${answer.content.colour}`;
  }
}

describe('requestState (stateless era)', () => {
  context('when the same retry is sent twice within the state\'s lifetime (a client resending after a lost response)', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    before(async () => {
      server = new PhantomServer({ name: 'p', version: '1', providers: [Painter], diagnostics: SILENT_DIAGNOSTICS });
      listener = await server.listen({ port: 0 });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    it('serves it again, as the revision allows: a state bounds replay (request, principal, expiry) but is not single-use', async () => {
      const elicit = { elicitation: {} };
      const first = await call(listener.url, 'tools/call', { _meta: meta(elicit), name: 'paint' });
      const [key] = Object.keys(first.body.result.inputRequests);
      const retry = { _meta: meta(elicit), name: 'paint', inputResponses: { [key]: { action: 'accept', content: { colour: 'teal' } } }, requestState: first.body.result.requestState };
      const once = await call(listener.url, 'tools/call', retry);
      const twice = await call(listener.url, 'tools/call', retry);
      expect(once.body.result.content).to.deep.equal([{ type: 'text', text: 'painted teal' }]);
      expect(twice.body.result.content).to.deep.equal([{ type: 'text', text: 'painted teal' }]);
      expect(server.container.resolve(Painter).painted).to.equal(2);
    });
  });
});

describe('input keys a handler names (stateless era)', () => {
  let server: PhantomServer;
  let listener: HttpListener;

  before(async () => {
    server = new PhantomServer({ name: 'k', version: '1', providers: [Keyed], diagnostics: SILENT_DIAGNOSTICS });
    listener = await server.listen({ port: 0 });
  });

  after(async () => {
    await listener.close();
    await server.close();
  });

  context('when a key is named like a member of Object.prototype (constructor, toString)', () => {
    it('asks the client for it, instead of taking the inherited member for its answer, and takes the answer on the retry', async () => {
      const elicit = { elicitation: {} };
      const first = await call(listener.url, 'tools/call', { _meta: meta(elicit), name: 'pair' });
      expect(first.body.result?.resultType).to.equal('input_required');
      expect(Object.keys(first.body.result.inputRequests)).to.deep.equal(['constructor', 'toString']);
      const inputResponses = { constructor: { action: 'accept', content: { colour: 'teal' } }, toString: { action: 'accept', content: { colour: 'ochre' } } };
      const retry = await call(listener.url, 'tools/call', { _meta: meta(elicit), name: 'pair', inputResponses, requestState: first.body.result.requestState });
      expect(retry.body.result.content).to.deep.equal([{ type: 'text', text: 'teal and ochre' }]);
    });
  });
});
