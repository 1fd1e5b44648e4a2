import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, requireChromium } from '../support/chromium.fixture';
import { fileFor, idsOf, linksOf, siteMissing, sitePages, type SiteLink } from './built-site';
import { serveSite, type StaticSite } from './static-server';

/** Where the screenshots go: `spec-output/` at the repository's root (gitignored). */
const OUTPUT = resolve(__dirname, '../../../spec-output');

/** A page is checked in the browser by its title, and its search by a word found only on another page. */
const PAGES = [
  { path: '/guide/getting-started.html', title: 'Getting started', shot: 'docs-getting-started.png', search: 'requestState', finds: '/concepts/eras' },
  { path: '/guide/testing.html', title: 'Testing', shot: 'docs-testing.png', search: 'annotations', finds: '/guide/tools' },
  { path: '/concepts/eras.html', title: 'The two protocol eras', shot: 'docs-eras.png', search: 'formTtlMs', finds: '/guide/elicitation' },
];

/** The built site must be there: npm test builds it (lint:docs) before mocha runs. */
function requireSite(): void {
  before(() => {
    const why = siteMissing();
    if (why) throw new Error(why);
  });
}

describe('The docs site (docs/, built by npm run docs)', function () {
  this.timeout(60_000);
  requireSite();

  describe('links', () => {
    it('every internal link and src resolves to a built file, and every #anchor to an id on its page', () => {
      const pages = sitePages();
      expect(pages).to.include.members(['/index.html', '/guide/getting-started.html', '/api/index.html']);
      const ids = new Map<string, Set<string>>();
      const idsAt = (file: string, page: string) => ids.get(file) ?? ids.set(file, idsOf(page)).get(file)!;
      const broken: string[] = [];
      const describeLink = (link: SiteLink, why: string) => `${link.page}: ${link.href} (${why})`;
      for (const page of pages) {
        for (const link of linksOf(page)) {
          const file = fileFor(link.target);
          if (!file) broken.push(describeLink(link, 'no such page or file'));
          else if (link.anchor && file.endsWith('.html')) {
            const targetPage = file.slice(file.indexOf('/dist/') + '/dist'.length);
            if (!idsAt(file, targetPage).has(link.anchor)) broken.push(describeLink(link, `no id "${link.anchor}" on ${targetPage}`));
          }
        }
      }
      expect(broken, broken.join('\n')).to.deep.equal([]);
    });

    it('the guides link into each other and into the API reference', () => {
      const targets = linksOf('/guide/getting-started.html').map((link) => link.target);
      expect(targets).to.include.members(['/guide/tools.html', '/guide/testing.html', '/concepts/eras.html', '/api/index.html']);
    });
  });

  describe('in a browser', () => {
    requireChromium();

    let site: StaticSite;
    let browser: Browser;
    let page: Page;

    before(async () => {
      site = await serveSite();
      browser = await launchChromium();
      mkdirSync(OUTPUT, { recursive: true });
    });

    beforeEach(async () => {
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    });

    afterEach(async () => {
      await page?.close();
    });

    after(async () => {
      await browser?.close();
      await site?.close();
    });

    for (const shown of PAGES) {
      context(`when ${shown.path} is opened`, () => {
        it('renders its title, the nav and the sidebar, and its search finds a word of another page', async () => {
          const errors: string[] = [];
          page.on('pageerror', (error) => errors.push(error.message));
          const response = await page.goto(site.origin + shown.path);
          expect(response?.status()).to.equal(200);

          expect((await page.textContent('.vp-doc h1'))?.trim()).to.contain(shown.title);
          const nav = page.locator('.VPNav');
          await nav.waitFor({ state: 'visible' });
          expect(await nav.locator('a', { hasText: 'Guide' }).count()).to.be.greaterThan(0);
          expect(await nav.locator('a', { hasText: 'API' }).count()).to.be.greaterThan(0);
          const sidebar = page.locator('.VPSidebar');
          await sidebar.waitFor({ state: 'visible' });
          expect(await sidebar.locator('a', { hasText: 'Getting started' }).count()).to.equal(1);
          expect(await sidebar.locator('a.is-active, .is-active a, a[aria-current]').count()).to.be.greaterThan(0);
          await page.screenshot({ path: resolve(OUTPUT, shown.shot), fullPage: false });

          const searchButton = page.locator('.VPNavBarSearch .DocSearch-Button');
          expect(await searchButton.count(), 'the nav has a search button (themeConfig.search)').to.equal(1);
          await searchButton.click();
          const input = page.locator('.VPLocalSearchBox .search-input');
          await input.waitFor({ state: 'visible' });
          await input.fill(shown.search);
          const hit = page.locator(`.VPLocalSearchBox a.result[href*="${shown.finds}"]`).first();
          await hit.waitFor({ state: 'visible' });
          await page.screenshot({ path: resolve(OUTPUT, shown.shot.replace('.png', '-search.png')), fullPage: false });
          expect(errors).to.deep.equal([]);
        });
      });
    }
  });
});
