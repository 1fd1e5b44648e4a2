import 'reflect-metadata';
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { Context, type PhantomServer } from '../../lib';
import { APP_MIME_TYPE, ELICITATION_META_KEY, FORM_SUBMIT_TOOL } from '../../lib/entries/extensions';
import type { HttpListener } from '../../lib/entries/http';
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

    it('asks for book_table\'s forms in the app when the client renders Views and cannot elicit, and resumes with the answers', async () => {
      const waiting = await ok('tools/call', { name: 'book_table', arguments: {} }, RENDERS_APPS);
      const pending = waiting._meta[ELICITATION_META_KEY];
      expect(pending.message).to.equal('How many people?');
      const next = await ok('tools/call', { name: FORM_SUBMIT_TOOL, arguments: { token: pending.token, action: 'accept', content: { people: 2 } } }, RENDERS_APPS);
      const day = next._meta[ELICITATION_META_KEY];
      const done = await ok('tools/call', { name: FORM_SUBMIT_TOOL, arguments: { token: day.token, action: 'accept', content: { day: '2026-12-24' } } }, RENDERS_APPS);
      expect(done.content).to.deep.equal([{ type: 'text', text: 'Booked a table for 2 on 2026-12-24.' }]);
      expect((await ok('tools/call', { name: 'book_table', arguments: {} })).content).to.deep.equal([{ type: 'text', text: 'No table booked (unsupported).' }]);
    });

    it('lists increment only to clients that render Views', async () => {
      const names = async (ctx?: Context) => (await ok('tools/list', {}, ctx)).tools.map((tool: { name: string }) => tool.name);
      expect(await names()).to.deep.equal(['show_counter', 'book_table']);
      expect(await names(RENDERS_APPS)).to.deep.equal(['show_counter', 'increment', 'book_table', 'phantom_elicitation_submit']);
      expect(await ok('tools/call', { name: 'increment', arguments: { count: 41 } }, RENDERS_APPS)).to.deep.include({ structuredContent: { count: 42 } });
    });
  });
});
