import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect } from 'chai';

/** The repository's root, from dist/spec/docs/. */
const ROOT = resolve(__dirname, '../../..');

/** The Markdown files at the root that GitHub shows, whose relative links must lead somewhere. */
const ROOT_PAGES = ['README.md', 'CONTRIBUTING.md'];

/** Every relative link target of a Markdown text (`[text](target)`), without its #anchor. */
function relativeLinks(markdown: string): string[] {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map(([, target]) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'))
    .map((target) => decodeURI(target.split('#')[0]));
}

describe('The relative links of README.md and CONTRIBUTING.md', () => {
  for (const page of ROOT_PAGES) {
    it(`every relative link in ${page} names a file of the repository`, () => {
      const links = relativeLinks(readFileSync(join(ROOT, page), 'utf8'));
      expect(links.length, `${page} has relative links`).to.be.greaterThan(0);
      const missing = [...new Set(links.filter((target) => !existsSync(resolve(ROOT, dirname(page), target))))];
      expect(missing, `${page} links to files that do not exist:\n  ${missing.join('\n  ')}\n`).to.deep.equal([]);
    });
  }
});
