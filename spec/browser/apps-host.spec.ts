import 'reflect-metadata';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import type { PhantomServer } from '../../lib';
import { APP_MIME_TYPE, ELICITATION_META_KEY, FORM_VIEW_URI } from '../../lib/entries/extensions';
import type { HttpListener } from '../../lib/entries/http';
import { createServer } from '../../samples/11-apps/main';
import { connectV2, type V2Era } from '../integration/support/sdk-v2-clients';
import { hostView } from '../support/apps-host';
import { launchChromium, requireChromium } from '../support/chromium.fixture';

/** Where the screenshots go: `spec-output/` at the repository's root (gitignored). */
const OUTPUT = resolve(__dirname, '../../../spec-output');

describe('MCP Apps in a real host (samples/11-apps): the View in Chromium, the ext-apps AppBridge, the official v2 client', function () {
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
    server = createServer();
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
    it(`initializes the View, hands it the tool's input and result, and a click calls the app-only tool through the host (${era})`, async () => {
      const client = await connectV2(listener.url, era, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } } });
      const errors: string[] = [];
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        // What a host does: find the tool's View, read it, render it, then call the tool.
        const tool = (await client.listTools()).tools.find((listed) => listed.name === 'show_counter')!;
        const uri = (tool._meta as { ui: { resourceUri: string } }).ui.resourceUri;
        const contents = (await client.readResource({ uri })).contents[0] as { mimeType: string; text: string; _meta?: unknown };
        expect([uri, contents.mimeType, contents._meta]).to.deep.equal(['ui://counter/view.html', APP_MIME_TYPE, { ui: { prefersBorder: true } }]);
        const view = await hostView(page, client, contents.text);
        try {
          await view.initialized;
          expect(view.bridge.getAppVersion()).to.deep.equal({ name: 'counter-view', version: '1.0.0' });
          await view.bridge.sendToolInput({ arguments: { start: 41 } });
          const result = await client.callTool({ name: 'show_counter', arguments: { start: 41 } });
          await view.bridge.sendToolResult(result as never);
          const frame = view.frame();
          await frame.waitForSelector('#increment:not([disabled])');
          expect([await frame.textContent('#label'), await frame.textContent('#count')]).to.deep.equal(['Counting from 41', '41']);

          await frame.click('#increment');
          await frame.waitForSelector('text=The counter is at 42.');
          expect(await frame.textContent('#count')).to.equal('42');
          await frame.waitForSelector('#increment:not([disabled])');
          expect(view.modelContext).to.deep.equal([{ content: [{ type: 'text', text: 'The user set the counter to 42.' }] }]);
          await page.screenshot({ path: resolve(OUTPUT, `apps-host-${era}.png`) });
          expect(errors).to.deep.equal([]);
        } finally {
          await view.close();
        }
      } finally {
        await client.close();
      }
    });

    it(`shows book_table's forms in the framework's form View to a host that cannot elicit, and a submitted form resumes the handler (${era})`, async () => {
      const client = await connectV2(listener.url, era, { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } } });
      const errors: string[] = [];
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
      page.on('pageerror', (error) => errors.push(error.message));
      try {
        const tool = (await client.listTools()).tools.find((listed) => listed.name === 'book_table')!;
        const uri = (tool._meta as { ui: { resourceUri: string } }).ui.resourceUri;
        expect(uri).to.equal(FORM_VIEW_URI);
        const contents = (await client.readResource({ uri })).contents[0] as { mimeType: string; text: string };
        expect(contents.mimeType).to.equal(APP_MIME_TYPE);
        const view = await hostView(page, client, contents.text);
        try {
          await view.initialized;
          await view.bridge.sendToolInput({ arguments: {} });
          // What the model sees: the call ended, the user is asked in the app; the form rides in _meta.
          const waiting = await client.callTool({ name: 'book_table', arguments: {} }) as { content: { text: string }[]; _meta: Record<string, { message: string }> };
          expect(waiting.content[0].text).to.contain('they are asked "How many people?" in the app');
          expect(waiting._meta[ELICITATION_META_KEY].message).to.equal('How many people?');
          await view.bridge.sendToolResult(waiting as never);
          const frame = view.frame();

          await frame.waitForSelector('input[name="people"]');
          expect(await frame.textContent('#message')).to.equal('How many people?');
          await frame.fill('input[name="people"]', '40');
          // Out of range (the input's max is only a hint): the server refuses it, naming the field, and the form stays.
          await frame.click('#submit');
          await frame.waitForSelector('#issues:not([hidden])');
          expect(await frame.textContent('#issues')).to.contain('people');
          await frame.fill('input[name="people"]', '2');
          await frame.click('#submit');

          await frame.waitForSelector('input[name="day"]');
          expect(await frame.textContent('#message')).to.equal('Which day?');
          await frame.fill('input[name="day"]', '2026-12-24');
          await frame.click('#submit');
          await frame.waitForSelector('text=Booked a table for 2 on 2026-12-24.');
          expect([await frame.isVisible('#form'), await frame.textContent('#message')]).to.deep.equal([false, 'Done']);
          await page.screenshot({ path: resolve(OUTPUT, `apps-form-${era}.png`) });
          const told = view.modelContext.map((update) => (update as { content: { text: string }[] }).content[0].text);
          expect(told.at(-1)).to.equal('The tool finished: Booked a table for 2 on 2026-12-24.');
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
