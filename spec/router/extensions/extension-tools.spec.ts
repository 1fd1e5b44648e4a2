import 'reflect-metadata';
import { expect } from 'chai';
import {
  CallEndedSignal, Context, Elicit, PhantomServer, RequestLoggingInterceptor, SILENT_DIAGNOSTICS, Tool, type CanActivate, type ExecutionContext, type RequestLogEntry,
} from '../../../lib';
import type { Extension, ExtensionHost } from '../../../lib/entries/extensions';

class Asking {
  @Tool({ description: 'Asks a question' })
  async ask(_args: object, ctx: Context) {
    const answer = await ctx.elicit(Elicit.form({ message: 'Sure?', requestedSchema: [{ name: 'sure', type: 'boolean', required: true }] }));
    return answer.action === 'accept' ? `answered ${JSON.stringify(answer.content)}` : answer.action;
  }
}

/** Records every operation a guard sees. */
class Recorder implements CanActivate {
  readonly seen: string[] = [];
  canActivate({ method, target }: ExecutionContext) {
    this.seen.push(`${method} ${target ?? ''}`);
    return true;
  }
}

/** An extension of the user's kind: a tool of its own, re-running `ask` with a table of answers, and a fallback that ends calls. */
function relay(): Extension & { host?: ExtensionHost } {
  const extension: Extension & { host?: ExtensionHost } = {
    id: 'com.example/relay',
    setup(host) {
      extension.host = host;
      host.serveTools([{
        name: 'relay_answer',
        description: 'Runs ask again with an answer',
        inputSchema: { type: 'object', properties: { sure: { type: 'boolean' } }, required: ['sure'], additionalProperties: false },
        handle: (args, ctx) => host.callTool('ask', {}, ctx, {
          elicitation: { elicit: async () => ({ action: 'accept', content: { sure: args.sure } }) },
        }).then((outcome) => ('result' in outcome ? outcome.result : { content: [{ type: 'text', text: outcome.error.message }], isError: true })),
      }]);
    },
    elicitationFallback: ({ tool }) => tool.name === 'ask'
      ? { elicit: async (request) => { throw new CallEndedSignal({ content: [{ type: 'text', text: `asked elsewhere: ${request.message}` }] }); } }
      : undefined,
  };
  return extension;
}

describe('ExtensionHost#serveTools, #callTool and Extension#elicitationFallback', () => {
  let server: PhantomServer;
  let recorder: Recorder;
  let log: RequestLogEntry[];
  let extension: ReturnType<typeof relay>;

  beforeEach(async () => {
    recorder = new Recorder();
    log = [];
    extension = relay();
    server = new PhantomServer({
      name: 'relay', version: '1.0.0', providers: [Asking], extensions: [extension], diagnostics: SILENT_DIAGNOSTICS,
      visible: (item, principal) => !(principal === 'eve' && item.kind === 'tool' && item.name === 'ask'),
    });
    server.use(recorder, new RequestLoggingInterceptor((entry) => log.push(entry)));
    await server.start();
  });

  afterEach(() => server.close());

  const call = (name: string, args: object, principal = 'ann') => server.handle('tools/call', { name, arguments: args }, new Context({ principal }));

  it('lists the extension tool and serves it through the pipeline, its arguments checked against its schema', async () => {
    const listed = await server.handle('tools/list', {}, new Context());
    expect('result' in listed && (listed.result.tools as { name: string }[]).map((tool) => tool.name)).to.deep.equal(['ask', 'relay_answer']);
    const refused = await call('relay_answer', { sure: 'yes' });
    expect('result' in refused && refused.result.isError).to.equal(true);
    expect(recorder.seen).to.include('tools/call relay_answer');
  });

  it('ends a call through the fallback with its result, which guards, interceptors and the error policy pass on as a result', async () => {
    const outcome = await call('ask', {});
    expect(outcome).to.deep.equal({ result: { content: [{ type: 'text', text: 'asked elsewhere: Sure?' }] } });
    expect(log.filter((entry) => entry.target === 'ask').map((entry) => entry.outcome)).to.deep.equal(['ok']);
  });

  it('re-runs a tool for the caller through tools/call\'s path with the fallback it is given', async () => {
    expect(await call('relay_answer', { sure: true })).to.deep.equal({ result: { content: [{ type: 'text', text: 'answered {"sure":true}' }] } });
    expect(recorder.seen).to.include.members(['tools/call relay_answer', 'tools/call ask']);
  });

  it('applies the server\'s visibility rule to the re-run: a tool hidden from the caller is unknown to it', async () => {
    const outcome = await call('relay_answer', { sure: true }, 'eve');
    expect('result' in outcome && outcome.result).to.deep.equal({ content: [{ type: 'text', text: 'Unknown tool: ask' }], isError: true });
  });

  it('refuses a tool that is not well formed, and a name already served, at once', () => {
    const host = extension.host!;
    expect(() => host.serveTools([
      { name: 'bad name', description: '', inputSchema: { type: 'array' }, handle: async () => '' },
      { name: 'ask', description: 'again', inputSchema: { type: 'object' }, handle: async () => '' },
    ])).to.throw(/bad name.*name must match[\s\S]*description[\s\S]*inputSchema/);
    expect(() => host.serveTools([{ name: 'ask', description: 'again', inputSchema: { type: 'object' }, handle: async () => '' }])).to.throw(/already registered/);
  });
});
