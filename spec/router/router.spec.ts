import 'reflect-metadata';
import { expect } from 'chai';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import {
  Context, ErrorCode, Field, PhantomServer, ProtocolError, Prompt, Resource, Tool, ToolError, userText, type Diagnostics,
} from '../../lib';

class ForecastArgs {
  @Field({ description: 'City name' }) @IsString() city!: string;
  @Field({ description: 'Days ahead' }) @IsOptional() @IsInt() @Min(1) @Max(14) days = 3;
}

class ItemParams {
  @IsInt() @Min(1) id!: number;
}

class Fixture {
  @Tool({ description: 'Forecast' })
  forecast(args: ForecastArgs) {
    return { city: args.city, days: args.days, isInstance: args instanceof ForecastArgs };
  }

  @Tool({ description: 'Fails for the model' })
  refuse() { throw new ToolError('No city by that name; call list_cities first'); }

  @Tool({ description: 'Has a bug' })
  crash() { throw new Error('secret database password in stack'); }

  @Tool({ description: 'Wants a JSON-RPC error' })
  protocol() { throw new ProtocolError(-32042, 'URL elicitation required', { elicitations: [] }); }

  @Tool({ description: 'Reads its context' })
  whoami(_args: object, ctx: Context) { return `request ${String(ctx.requestId)}`; }

  @Resource('x://fixed', { description: 'A fixed resource', mimeType: 'text/plain' })
  fixed() { return 'fixed text'; }

  @Resource('x://items/{id}', { description: 'An item', mimeType: 'application/json', list: 'items', complete: { id: ['1', '2', '10'] } })
  item(params: ItemParams) { return { id: params.id, typed: typeof params.id }; }

  @Resource('x://files/{+path}', { description: 'Any file' })
  file(params: { path: string }) { return `file ${params.path}`; }

  @Resource('x://broken/{id}', { description: 'Throws' })
  broken() { throw new Error('boom'); }

  items() { return [{ uri: 'x://items/1' }, { uri: 'x://items/2', name: 'second' }]; }

  @Prompt({ description: 'Plan', complete: { city: 'cities' } })
  plan(args: ForecastArgs) { return userText(`${args.city} for ${args.days} days (${typeof args.days})`); }

  @Prompt({ description: 'Throws' })
  badPrompt() { throw new Error('boom'); }

  cities(prefix: string) { return Array.from({ length: 150 }, (_, i) => `${prefix}${i}`); }
}

describe('Router', () => {
  const errors: string[] = [];
  const diagnostics: Diagnostics = { error: (message) => errors.push(message), warn: () => {} };
  const server = new PhantomServer({ name: 't', version: '1', providers: [Fixture], diagnostics, pageSize: 3 });
  const call = (method: string, params?: unknown, ctx?: Context) => server.handle(method, params, ctx);
  const result = async (method: string, params?: unknown) => {
    const outcome = await call(method, params);
    if ('error' in outcome) throw new Error(`unexpected error ${JSON.stringify(outcome.error)}`);
    return outcome.result as Record<string, any>;
  };
  const error = async (method: string, params?: unknown) => {
    const outcome = await call(method, params);
    if (!('error' in outcome)) throw new Error(`expected an error, got ${JSON.stringify(outcome.result)}`);
    return outcome.error;
  };

  beforeEach(() => { errors.length = 0; });

  describe('tools/list', () => {
    it('pages through every tool', async () => {
      const first = await result('tools/list');
      expect(first.tools.map((t: { name: string }) => t.name)).to.deep.equal(['forecast', 'refuse', 'crash']);
      const second = await result('tools/list', { cursor: first.nextCursor });
      expect(second.tools.map((t: { name: string }) => t.name)).to.deep.equal(['protocol', 'whoami']);
      expect(second).not.to.have.property('nextCursor');
    });

    it('rejects a bad cursor with invalid params', async () => {
      expect(await error('tools/list', { cursor: 'forged' })).to.deep.equal({ code: ErrorCode.InvalidParams, message: 'Invalid cursor' });
    });
  });

  describe('tools/call', () => {
    it('hands the handler a validated instance with defaults', async () => {
      const called = await result('tools/call', { name: 'forecast', arguments: { city: 'Oslo' } });
      expect(called.structuredContent).to.deep.equal({ city: 'Oslo', days: 3, isInstance: true });
    });

    it('answers invalid arguments with one line per property', async () => {
      const called = await result('tools/call', { name: 'forecast', arguments: { city: 7, days: 99 } });
      expect(called.isError).to.equal(true);
      const lines = called.content[0].text.split('\n');
      expect(lines[0]).to.equal('Invalid arguments for tool "forecast":');
      expect(lines.slice(1)).to.have.length(2);
      expect(lines.some((l: string) => l.includes('city'))).to.equal(true);
      expect(lines.some((l: string) => l.includes('days'))).to.equal(true);
    });

    it('turns a ToolError into an error result with its message', async () => {
      expect(await result('tools/call', { name: 'refuse' })).to.deep.equal({
        content: [{ type: 'text', text: 'No city by that name; call list_cities first' }], isError: true,
      });
    });

    it('turns any other exception into a generic error result and logs the detail', async () => {
      const called = await result('tools/call', { name: 'crash' });
      expect(called).to.deep.equal({ content: [{ type: 'text', text: 'The tool failed with an internal error.' }], isError: true });
      expect(JSON.stringify(called)).not.to.include('secret');
      expect(errors).to.deep.equal(['Fixture#crash threw']);
    });

    it('lets a ProtocolError through as a JSON-RPC error', async () => {
      expect(await error('tools/call', { name: 'protocol' })).to.deep.equal({ code: -32042, message: 'URL elicitation required', data: { elicitations: [] } });
    });

    it('hands the handler its context', async () => {
      const outcome = await call('tools/call', { name: 'whoami' }, new Context({ requestId: 42 }));
      expect(outcome).to.deep.equal({ result: { content: [{ type: 'text', text: 'request 42' }] } });
    });

    context('when the request is malformed', () => {
      const cases: Array<[string, unknown, number]> = [
        ['an unknown tool', { name: 'nope' }, ErrorCode.InvalidParams],
        ['a missing name', {}, ErrorCode.InvalidParams],
        ['a numeric name', { name: 5 }, ErrorCode.InvalidParams],
        ['array arguments', { name: 'forecast', arguments: [1] }, ErrorCode.InvalidParams],
        ['string arguments', { name: 'forecast', arguments: 'x' }, ErrorCode.InvalidParams],
        ['array params', [1, 2], ErrorCode.InvalidParams],
        ['string params', 'x', ErrorCode.InvalidParams],
      ];
      for (const [name, params, code] of cases) {
        it(`answers ${name} with ${code}`, async () => {
          expect((await error('tools/call', params)).code).to.equal(code);
        });
      }
    });
  });

  describe('resources/list', () => {
    it('lists fixed resources, then what listers name, with template defaults', async () => {
      const listed = await result('resources/list');
      expect(listed).not.to.have.property('nextCursor');
      expect(listed.resources).to.deep.equal([
        { uri: 'x://fixed', name: 'fixed', description: 'A fixed resource', mimeType: 'text/plain' },
        { uri: 'x://items/1', name: 'item', description: 'An item', mimeType: 'application/json' },
        { uri: 'x://items/2', name: 'second', description: 'An item', mimeType: 'application/json' },
      ]);
    });
  });

  describe('resources/templates/list', () => {
    it('lists every template', async () => {
      const listed = await result('resources/templates/list');
      expect(listed).not.to.have.property('nextCursor');
      expect(listed.resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate))
        .to.deep.equal(['x://items/{id}', 'x://files/{+path}', 'x://broken/{id}']);
    });
  });

  describe('resources/read', () => {
    it('reads a fixed resource', async () => {
      expect(await result('resources/read', { uri: 'x://fixed' })).to.deep.equal({
        contents: [{ uri: 'x://fixed', mimeType: 'text/plain', text: 'fixed text' }],
      });
    });

    it('matches a template and converts its variables to the DTO types', async () => {
      expect(await result('resources/read', { uri: 'x://items/7' })).to.deep.equal({
        contents: [{ uri: 'x://items/7', mimeType: 'application/json', text: '{"id":7,"typed":"number"}' }],
      });
    });

    it('passes reserved expansions through', async () => {
      expect((await result('resources/read', { uri: 'x://files/a/b.txt' })).contents[0].text).to.equal('file a/b.txt');
    });

    it('answers an unknown URI with -32002 and the URI in data', async () => {
      expect(await error('resources/read', { uri: 'x://nothing' })).to.deep.equal({
        code: ErrorCode.ResourceNotFound, message: 'Resource not found: x://nothing', data: { uri: 'x://nothing' },
      });
    });

    it('answers variables that fail validation with invalid params', async () => {
      expect((await error('resources/read', { uri: 'x://items/0' })).code).to.equal(ErrorCode.InvalidParams);
    });

    it('answers a throwing handler with an internal error and logs it', async () => {
      expect(await error('resources/read', { uri: 'x://broken/1' })).to.deep.equal({ code: ErrorCode.InternalError, message: 'Internal error' });
      expect(errors).to.have.length(1);
    });

    it('answers a missing URI with invalid params', async () => {
      expect((await error('resources/read', {})).code).to.equal(ErrorCode.InvalidParams);
    });
  });

  describe('prompts/get', () => {
    it('converts string arguments to the DTO types', async () => {
      expect(await result('prompts/get', { name: 'plan', arguments: { city: 'Rome', days: '5' } })).to.deep.equal({
        description: 'Plan',
        messages: [{ role: 'user', content: { type: 'text', text: 'Rome for 5 days (number)' } }],
      });
    });

    it('answers a missing required argument with invalid params', async () => {
      const failed = await error('prompts/get', { name: 'plan', arguments: {} });
      expect(failed.code).to.equal(ErrorCode.InvalidParams);
      expect(failed.message).to.match(/city/);
    });

    it('answers an unknown prompt with invalid params', async () => {
      expect((await error('prompts/get', { name: 'nope' })).code).to.equal(ErrorCode.InvalidParams);
    });

    it('answers a throwing prompt with an internal error', async () => {
      expect((await error('prompts/get', { name: 'badPrompt' })).code).to.equal(ErrorCode.InternalError);
    });
  });

  describe('prompts/list', () => {
    it('lists prompts with their arguments', async () => {
      const listed = await result('prompts/list');
      expect(listed.prompts[0]).to.deep.equal({
        name: 'plan', description: 'Plan',
        arguments: [{ name: 'city', description: 'City name', required: true }, { name: 'days', description: 'Days ahead', required: false }],
      });
    });
  });

  describe('completion/complete', () => {
    it('completes a template variable from a list, by prefix', async () => {
      expect(await result('completion/complete', { ref: { type: 'ref/resource', uri: 'x://items/{id}' }, argument: { name: 'id', value: '1' } }))
        .to.deep.equal({ completion: { values: ['1', '10'], total: 2, hasMore: false } });
    });

    it('caps a method completion at 100 values and says there are more', async () => {
      const completed = await result('completion/complete', { ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'city', value: 'R' } });
      expect(completed.completion.values).to.have.length(100);
      expect(completed.completion).to.include({ total: 150, hasMore: true });
    });

    it('answers an argument without completion with no values', async () => {
      expect(await result('completion/complete', { ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'days', value: '' } }))
        .to.deep.equal({ completion: { values: [] } });
    });

    it('answers an unknown reference with invalid params', async () => {
      expect((await error('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } })).code)
        .to.equal(ErrorCode.InvalidParams);
      expect((await error('completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'a', value: '' } })).code)
        .to.equal(ErrorCode.InvalidParams);
    });
  });

  describe('an unknown method', () => {
    it('is method not found', async () => {
      expect(await error('tools/destroy')).to.deep.equal({ code: ErrorCode.MethodNotFound, message: 'Method not found: tools/destroy' });
    });
  });
});
