import 'reflect-metadata';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/client';
import { IsInt } from 'class-validator';
import { apps, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool, ToolUi } from '../../lib';
import { APP_MIME_TYPE } from '../../lib/entries/extensions';
import type { HttpListener } from '../../lib/entries/http';
import { redis } from '../../lib/entries/redis';
import { uniqueId } from '../../lib/core/unique-id';
import { RoundRobinProxy, UPSTREAM_HEADER } from '../../bench/servers/round-robin-proxy';
import { requireRedis, sharedRedis } from '../support/redis.fixture';
import { connectV2, type V2Era } from './support/sdk-v2-clients';

const UI = 'io.modelcontextprotocol/ui';
const DECLARING = { extensions: { [UI]: { mimeTypes: [APP_MIME_TYPE] } } };
const VIEW = '<!doctype html><html><head><meta charset="utf-8"><title>Counter</title></head><body><output>0</output></body></html>';
const VIEW_UI = { csp: { resourceDomains: ['https://cdn.example.com'] }, prefersBorder: false };

class CountArgs {
  @Field({ description: 'The count now' }) @IsInt() count!: number;
}

class Counter {
  @Tool({ description: 'Show a counter the user can increment' })
  @ToolUi({ html: VIEW, ...VIEW_UI })
  show() {
    return { content: [{ type: 'text', text: 'The counter is at 0.' }], structuredContent: { count: 0 } };
  }

  @Tool({ description: 'Increment the counter' })
  @ToolUi({ resourceUri: 'ui://tools/show.html', visibility: ['app'] })
  increment(args: CountArgs) {
    return `The counter is at ${args.count + 1}.`;
  }

  @Tool({ description: 'A tool without a View' })
  plain() {
    return 'plain';
  }
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { code?: number }) => error);
/** What a promise settles with: its value, or what it rejected with. */
const settled = <T>(promise: Promise<T>) => promise.then((value) => value, (error: Error & { code?: number }) => error);
const textOf = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

/** What a client sees of the apps: its tools, the View as listed and read, and what the calls answer. */
async function seen(client: Client) {
  const tools = (await client.listTools()).tools;
  const resources = (await client.listResources()).resources;
  const read = await client.readResource({ uri: 'ui://tools/show.html' });
  const show = await client.callTool({ name: 'show', arguments: {} });
  const increment = await settled(client.callTool({ name: 'increment', arguments: { count: 41 } }).then(textOf));
  return { tools, resources, read, show, increment };
}

describe('apps: MCP Apps through the official SDK v2 client, in both eras', () => {
  let server: PhantomServer;
  let listener: HttpListener;

  beforeEach(async () => {
    server = new PhantomServer({ name: 'counter', version: '1', providers: [Counter], diagnostics: SILENT_DIAGNOSTICS, extensions: [apps()] });
    listener = await server.listen({ port: 0 });
  });

  afterEach(async () => {
    await listener.close();
    await server.close();
  });

  for (const era of ['stateless', 'session'] as V2Era[]) {
    context(`when the client declares the extension (${era})`, () => {
      it('advertises it, lists the tools with _meta.ui (the app-only one too), serves the View, and lets the app-only tool be called', async () => {
        const client = await connectV2(listener.url, era, DECLARING);
        try {
          expect((client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.[UI]).to.deep.equal({});
          const { tools, resources, read, show, increment } = await seen(client);
          expect(tools.map((tool) => [tool.name, tool._meta])).to.deep.equal([
            ['show', { ui: { resourceUri: 'ui://tools/show.html' }, 'ui/resourceUri': 'ui://tools/show.html' }],
            ['increment', { ui: { resourceUri: 'ui://tools/show.html', visibility: ['app'] }, 'ui/resourceUri': 'ui://tools/show.html' }],
            ['plain', undefined],
          ]);
          expect(resources).to.deep.equal([{ uri: 'ui://tools/show.html', name: 'show view', mimeType: APP_MIME_TYPE, _meta: { ui: VIEW_UI } }]);
          expect(read.contents).to.deep.equal([{ uri: 'ui://tools/show.html', mimeType: APP_MIME_TYPE, text: VIEW, _meta: { ui: VIEW_UI } }]);
          expect(show.structuredContent).to.deep.equal({ count: 0 });
          expect(increment).to.equal('The counter is at 42.');
        } finally {
          await client.close();
        }
      });
    });

    context(`when the client does not declare the extension (${era})`, () => {
      it('hides the app-only tool from its list and its calls, and answers the UI tool with its text', async () => {
        const client = await connectV2(listener.url, era);
        try {
          const { tools, show, increment } = await seen(client);
          expect(tools.map((tool) => tool.name)).to.deep.equal(['show', 'plain']);
          expect(textOf(show)).to.equal('The counter is at 0.');
          const unknown = await failure(client.callTool({ name: 'no_such_tool', arguments: {} }));
          expect((increment as { code?: number }).code).to.be.a('number').and.equal(unknown?.code);
          expect((increment as Error).message).to.contain('increment');
        } finally {
          await client.close();
        }
      });
    });
  }
});

describe('apps: across replicas sharing a Redis store', function () {
  this.timeout(30_000);
  requireRedis();
  const servers: PhantomServer[] = [];
  const listeners: HttpListener[] = [];
  let proxy: RoundRobinProxy;
  let url: string;

  before(async () => {
    const store = { url: (await sharedRedis()).url, keyPrefix: `apps-${uniqueId()}:` };
    for (let i = 0; i < 3; i++) {
      const server = new PhantomServer({ name: 'counter', version: '1', providers: [Counter], diagnostics: SILENT_DIAGNOSTICS, extensions: [apps()], store: redis(store) });
      servers.push(server);
      listeners.push(await server.listen({ port: 0 }));
    }
    proxy = new RoundRobinProxy(listeners.map((listener) => listener.port));
    url = await proxy.start();
  });

  after(async () => {
    await proxy?.stop();
    await Promise.all(listeners.map((listener) => listener.close()));
    await Promise.all(servers.map((server) => server.close()));
  });

  for (const era of ['stateless', 'session'] as V2Era[]) {
    it(`each node serves the View and knows what the client declared, wherever its requests land (${era})`, async () => {
      const declaring = await connectV2(url, era, DECLARING);
      const other = await connectV2(url, era);
      try {
        const before = proxy.routed.length;
        for (let i = 0; i < 3; i++) {
          const ui = await seen(declaring);
          expect(ui.tools.map((tool) => tool.name)).to.deep.equal(['show', 'increment', 'plain']);
          expect(ui.read.contents[0]).to.include({ text: VIEW });
          expect(ui.increment).to.equal('The counter is at 42.');
          const plain = await seen(other);
          expect(plain.tools.map((tool) => tool.name)).to.deep.equal(['show', 'plain']);
          expect((plain.increment as { code?: number }).code).to.be.a('number');
        }
        const nodes = new Set(proxy.routed.slice(before).map((routed) => routed.upstream));
        expect(nodes.size, `requests reached nodes ${[...nodes].join(', ')} (${UPSTREAM_HEADER})`).to.equal(3);
      } finally {
        await declaring.close();
        await other.close();
      }
    });
  }
});
