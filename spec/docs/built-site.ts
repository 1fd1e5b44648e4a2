import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, resolve, sep } from 'node:path';

/** Where `npm run docs` writes the site (VitePress's default outDir), from dist/spec/docs/. */
export const SITE = resolve(__dirname, '../../../docs/.vitepress/dist');

/** Why the built site cannot be checked, or undefined when it is there. */
export function siteMissing(): string | undefined {
  return existsSync(join(SITE, 'index.html'))
    ? undefined
    : `no built docs site at ${SITE}: run \`npm run docs\` first (npm test runs it as lint:docs before mocha)`;
}

/** Every HTML file of the site, as site paths (`/guide/tools.html`). */
export function sitePages(dir = SITE): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sitePages(path);
    return name.endsWith('.html') ? ['/' + relative(SITE, path).split(sep).join('/')] : [];
  });
}

/** An internal link found on a page: where it was and what it names. */
export interface SiteLink {
  readonly page: string;
  readonly href: string;
  /** The site path it resolves to (no query, no fragment). */
  readonly target: string;
  /** The fragment, decoded, or undefined. */
  readonly anchor?: string;
}

const HREF = /\s(?:href|src)\s*=\s*"([^"]*)"/g;
const ID = /\s(?:id|name)\s*=\s*"([^"]*)"/g;
const EXTERNAL = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** Decodes the few entities VitePress and TypeDoc write into attribute values. */
function unescapeAttribute(value: string): string {
  return value.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}

/** The internal links (href and src) of a page, resolved against it; external ones left out. */
export function linksOf(page: string, html = readPage(page)): SiteLink[] {
  return [...html.matchAll(HREF)].flatMap(([, raw]) => {
    const href = unescapeAttribute(raw);
    if (href === '' || EXTERNAL.test(href)) return [];
    const [beforeHash, hash] = splitOnce(href, '#');
    const path = beforeHash.split('?')[0];
    const target = path === '' ? page : posix.resolve(posix.dirname(page), path);
    return [{ page, href, target, anchor: hash === undefined || hash === '' ? undefined : decodeURIComponent(hash) }];
  });
}

/** The ids a page defines. */
export function idsOf(page: string, html = readPage(page)): Set<string> {
  return new Set([...html.matchAll(ID)].map(([, id]) => unescapeAttribute(id)));
}

/**
 * The built file a site path is served from, as a static host serves it: the file itself, a
 * folder's index.html, or a clean URL's `.html`; undefined when none exists.
 */
export function fileFor(target: string): string | undefined {
  const path = join(SITE, decodeURIComponent(target));
  if (!path.startsWith(SITE)) return undefined;
  const candidates = [path, join(path, 'index.html'), `${path}.html`];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** A page's HTML. */
export function readPage(page: string): string {
  return readFileSync(join(SITE, page), 'utf8');
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
