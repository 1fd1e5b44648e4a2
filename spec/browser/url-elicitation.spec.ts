import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitationCompleteNotificationSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { serve, type Serving } from '../../samples/04-elicitation/main';
import { launchChromium, requireChromium } from '../support/chromium.fixture';

/** Where the screenshots go: `spec-output/` at the repository's root (gitignored). */
const OUTPUT = resolve(__dirname, '../../../spec-output');

/** The official client over Streamable HTTP, declaring URL elicitation; it hands each URL it is sent to the spec and accepts. */
async function urlClient(mcpUrl: string) {
  const urls: Array<{ url: string; elicitationId: string }> = [];
  const completed: string[] = [];
  let received!: (url: string) => void;
  const nextUrl = new Promise<string>((resolve) => (received = resolve));
  const client = new Client({ name: 'browser-spec', version: '0.0.1' }, { capabilities: { elicitation: { url: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    if (request.params.mode !== 'url') return { action: 'decline' };
    urls.push({ url: request.params.url, elicitationId: request.params.elicitationId });
    received(request.params.url);
    // Accepting means "the user agreed to open it": the value itself goes to the page, not here.
    return { action: 'accept' };
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) => {
    completed.push(notification.params.elicitationId);
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
  return { client, urls, completed, nextUrl };
}

describe('URL elicitation in a browser (samples/04-elicitation)', function () {
  this.timeout(60_000);
  requireChromium();

  let serving: Serving;
  let browser: Browser;
  let page: Page;

  before(async () => {
    serving = await serve(['--http', '--port', '0'], () => undefined);
    browser = await launchChromium();
    mkdirSync(OUTPUT, { recursive: true });
  });

  beforeEach(async () => {
    page = await browser.newPage();
  });

  afterEach(async () => {
    await page?.close();
  });

  after(async () => {
    await browser?.close();
    await serving?.close();
  });

  describe('#authenticate', () => {
    context('when the user types a name on the page the client was sent to and submits it', () => {
      it('resumes the tool with the typed name and tells the client the elicitation is complete', async () => {
        const { client, urls, completed, nextUrl } = await urlClient(serving.mcpUrl!);
        try {
          const call = client.callTool({ name: 'authenticate', arguments: {} });
          const url = await nextUrl;
          expect(url.startsWith(`${serving.origin}/connect/`), url).to.equal(true);

          const shown = await page.goto(url);
          expect(shown?.status()).to.equal(200);
          expect(await page.textContent('h1')).to.equal('Please sign in');
          await page.fill('input[name="value"]', 'Ada <Lovelace>');
          await page.screenshot({ path: resolve(OUTPUT, 'url-elicitation.png'), fullPage: true });
          await Promise.all([page.waitForURL(url), page.click('button[type="submit"]')]);
          expect(await page.textContent('p')).to.contain('Thank you, Ada <Lovelace>.');
          await page.screenshot({ path: resolve(OUTPUT, 'url-elicitation-done.png'), fullPage: true });

          const result = await call;
          expect(result.content).to.deep.equal([{ type: 'text', text: 'Authenticated as Ada <Lovelace>' }]);
          expect(completed).to.deep.equal([urls[0].elicitationId]);
        } finally {
          await client.close();
        }
      });
    });

    context('when the page of an elicitation already answered is opened or submitted again', () => {
      it('shows the not-found page with 404 to a stale form\'s submit and to a fresh visit', async () => {
        const { client, nextUrl } = await urlClient(serving.mcpUrl!);
        const stale = await browser.newPage();
        try {
          const call = client.callTool({ name: 'authenticate', arguments: {} });
          const url = await nextUrl;
          await page.goto(url);
          await stale.goto(url);
          await page.fill('input[name="value"]', 'Grace');
          await Promise.all([page.waitForURL(url), page.click('button[type="submit"]')]);
          expect((await call).content).to.deep.equal([{ type: 'text', text: 'Authenticated as Grace' }]);

          await stale.fill('input[name="value"]', 'Mallory');
          const [resubmitted] = await Promise.all([stale.waitForResponse(url), stale.click('button[type="submit"]')]);
          expect(resubmitted.status()).to.equal(404);
          expect(await stale.textContent('h1')).to.equal('Link not found');

          const again = await page.goto(url);
          expect(again?.status()).to.equal(404);
          expect(await page.textContent('h1')).to.equal('Link not found');
          await page.screenshot({ path: resolve(OUTPUT, 'url-elicitation-used.png'), fullPage: true });
        } finally {
          await stale.close();
          await client.close();
        }
      });
    });
  });
});
