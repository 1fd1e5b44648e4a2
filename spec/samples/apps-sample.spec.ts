import 'reflect-metadata';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { APP_MIME_TYPE, Context, type HttpListener, type PhantomServer } from '../../lib';
import * as sample from '../../samples/11-apps/main';

const RENDERS_APPS = new Context({ clientCapabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } } } as never });

describe('samples', () => {
  describe('11-apps (the browser spec renders its View: spec/browser/apps-host.spec.ts)', () => {
    let server: PhantomServer;
    let listener: HttpListener;

    // Listening (not only start()): with REDIS_URL set the sample shares a store, which close() ends only for a server that served.
    before(async () => {
      server = sample.createServer();
      listener = await server.listen({ port: 0 });
    });

    after(async () => {
      await listener.close();
      await server.close();
    });

    const ok = async (method: string, params: unknown, ctx = new Context()) => {
      const outcome = await server.handle(method, params, ctx);
      if ('error' in outcome) throw new Error(`${method} failed: ${JSON.stringify(outcome.error)}`);
      return outcome.result as Record<string, any>;
    };

    it('serves counter.html as its View, with the app-side SDK inlined', async () => {
      const [contents] = (await ok('resources/read', { uri: 'ui://counter/view.html' })).contents;
      expect(contents).to.include({ uri: 'ui://counter/view.html', mimeType: APP_MIME_TYPE });
      expect(readFileSync(sample.COUNTER_VIEW, 'utf8')).to.contain('<script data-mcp-apps-sdk></script>');
      expect(contents.text).not.to.contain('<script data-mcp-apps-sdk></script>');
      expect(contents.text).to.contain('globalThis.McpApps=');
    });

    it('answers show_counter with text for hosts without Apps, and data for the View', async () => {
      expect(await ok('tools/call', { name: 'show_counter', arguments: { start: 3 } })).to.deep.equal({
        content: [{ type: 'text', text: 'The counter is at 3.' }], structuredContent: { count: 3 },
      });
    });

    it('lists increment only to clients that render Views', async () => {
      const names = async (ctx?: Context) => (await ok('tools/list', {}, ctx)).tools.map((tool: { name: string }) => tool.name);
      expect(await names()).to.deep.equal(['show_counter']);
      expect(await names(RENDERS_APPS)).to.deep.equal(['show_counter', 'increment']);
      expect(await ok('tools/call', { name: 'increment', arguments: { count: 41 } }, RENDERS_APPS)).to.deep.include({ structuredContent: { count: 42 } });
    });
  });
});
