import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { IsInt } from 'class-validator';
import type { Browser, Page } from 'playwright-core';
import { apps, APP_MIME_TYPE, Field, PhantomServer, SILENT_DIAGNOSTICS, Tool, ToolUi, type HttpListener } from '../../lib';
import { connectV2, type V2Era } from '../integration/support/sdk-v2-clients';
import { hostView } from '../support/apps-host';
import { launchChromium, requireChromium } from '../support/chromium.fixture';

/** Where the screenshots go: `spec-output/` at the repository's root (gitignored). */
const OUTPUT = resolve(__dirname, '../../../spec-output');

/**
 * A View written as a user would: plain HTML, the app-side SDK asked for with the placeholder
 * (inlined by the extension from @modelcontextprotocol/ext-apps), nothing loaded from elsewhere.
 */
const COUNTER_VIEW = `<!doctype html>
<html><head><meta charset="utf-8"><title>Counter</title><script data-mcp-apps-sdk></script>
<style>body { font-family: sans-serif; margin: 16px } output { font-size: 32px }</style></head>
<body>
  <p id="input">no input yet</p>
  <output id="count">?</output>
  <p id="after">no call yet</p>
  <script type="module">
    const { App } = globalThis.McpApps;
    const app = new App({ name: 'counter-view', version: '1.0.0' }, {});
    app.ontoolinput = (params) => { document.getElementById('input').textContent = 'input ' + JSON.stringify(params.arguments); };
    app.ontoolresult = async (result) => {
      document.getElementById('count').textContent = String(result.structuredContent.count);
      const next = await app.callServerTool({ name: 'increment', arguments: { count: result.structuredContent.count } });
      document.getElementById('after').textContent = next.isError ? 'error ' + next.content[0].text : next.content[0].text;
    };
    await app.connect();
  </script>
</body></html>`;

class CountArgs {
  @Field({ description: 'The count now' }) @IsInt() count!: number;
}

class Counter {
  readonly increments: number[] = [];

  @Tool({ description: 'Show a counter, starting at a number' })
  @ToolUi({ html: COUNTER_VIEW, prefersBorder: true })
  show(args: CountArgs) {
    return { content: [{ type: 'text', text: `The counter is at ${args.count}.` }], structuredContent: { count: args.count } };
  }

  @Tool({ description: 'Increment the counter (called by the View only)' })
  @ToolUi({ resourceUri: 'ui://tools/show.html', visibility: ['app'] })
  increment(args: CountArgs) {
    this.increments.push(args.count);
    return `The counter is at ${args.count + 1}.`;
  }
}

describe('MCP Apps in a real host: a View in Chromium, the ext-apps AppBridge, the official v2 client', function () {
  this.timeout(60_000);
  requireChromium();

  let server: PhantomServer;
  let listener: HttpListener;
  let browser: Browser;
  let page: Page;

  before(async () => {
    browser = await launchChromium();
    mkdirSync(OUTPUT, { recursive: true });
  });

  beforeEach(async () => {
    server = new PhantomServer({ name: 'counter', version: '1', providers: [Counter], diagnostics: SILENT_DIAGNOSTICS, extensions: [apps()] });
    listener = await server.listen({ port: 0 });
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page?.close();
    await listener.close();
    await server.close();
  });

  after(async () => {
    await browser?.close();
  });

  for (const era of ['session', 'stateless'] as V2Era[]) {
    it(`initializes the View, hands it the tool's input and result, and proxies its call to an app-only tool to the server (${era})`, async () => {
      const client = await connectV2(listener.url, era, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } } });
      const errors: string[] = [];
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        // What a host does: find the tool's View, read it, render it, then call the tool.
        const show = (await client.listTools()).tools.find((tool) => tool.name === 'show')!;
        const uri = (show._meta as { ui: { resourceUri: string } }).ui.resourceUri;
        const read = await client.readResource({ uri });
        const contents = read.contents[0] as { mimeType: string; text: string; _meta?: unknown };
        expect([contents.mimeType, contents._meta]).to.deep.equal([APP_MIME_TYPE, { ui: { prefersBorder: true } }]);
        const view = await hostView(page, client, contents.text);
        try {
          await view.initialized;
          expect(view.bridge.getAppVersion()).to.deep.equal({ name: 'counter-view', version: '1.0.0' });
          await view.bridge.sendToolInput({ arguments: { count: 41 } });
          const result = await client.callTool({ name: 'show', arguments: { count: 41 } });
          await view.bridge.sendToolResult(result as never);
          const frame = view.frame();
          await frame.waitForSelector('text=The counter is at 42.');
          expect(await frame.textContent('#input')).to.equal('input {"count":41}');
          expect(await frame.textContent('#count')).to.equal('41');
          expect(await frame.textContent('#after')).to.equal('The counter is at 42.');
          expect(server.container.resolve(Counter).increments).to.deep.equal([41]);
          await page.screenshot({ path: resolve(OUTPUT, `apps-host-${era}.png`) });
          expect(errors).to.deep.equal([]);
        } finally {
          await view.close();
        }
      } finally {
        await client.close();
      }
    });
  }
});
