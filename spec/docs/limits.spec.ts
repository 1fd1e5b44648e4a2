import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..', '..');
const PAGE = readFileSync(join(ROOT, 'docs', 'guide', 'limits.md'), 'utf8');

/**
 * The option interfaces a user sets limits in, each with the prefix its options carry in the
 * table (`tasks.minTtlMs`). A limit added to one of them must be added to the page.
 */
const OPTION_FILES: ReadonlyArray<readonly [file: string, prefix: string]> = [
  ['lib/server/server-options.ts', ''],
  ['lib/transport/http/http-options.ts', ''],
  ['lib/transport/pipe/stdio.transport.ts', ''],
  ['lib/protocol/seams/event-store.ts', ''],
  ['lib/protocol/tasks/task-options.ts', 'tasks.'],
  ['lib/auth/resource-server-options.ts', ''],
  ['lib/extensions/skills/skills-options.ts', ''],
  ['lib/extensions/apps/apps-options.ts', ''],
];

/** An optional option that bounds something: `max…`/`min…`, or a timeout, ttl, grace or idle time. */
const LIMIT_OPTION = /readonly ((?:max|min)[A-Z]\w*|\w+(?:Timeout|Ttl|Grace|Idle)(?:Ms|Sec))\?:/g;

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sources(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The rows of the page's "Every limit" table: the option, and the cells after it. */
function limitRows(): Array<{ name: string; cells: string[] }> {
  const section = PAGE.slice(PAGE.indexOf('\n## Every limit\n'));
  const start = section.indexOf('| Option |');
  const table = section.slice(start, section.indexOf('\n\n', start));
  return table.split('\n').filter((line) => line.startsWith('| `')).map((line) => {
    const cells = line.split(' | ').map((cell) => cell.replace(/^\| |\s*\|$/g, '').trim());
    return { name: /^`([^`]+)`$/.exec(cells[0])?.[1] ?? cells[0], cells: cells.slice(1) };
  });
}

/** Every limit option the option interfaces declare, as the table names it. */
function declaredLimits(): string[] {
  return OPTION_FILES.flatMap(([file, prefix]) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(LIMIT_OPTION)].map(([, name]) => prefix + name));
}

describe('docs/guide/limits.md', () => {
  it('holds no merge-conflict markers', () => {
    expect(PAGE).not.to.match(/^(<{7}|>{7}|={7})( |$)/m);
  });

  describe('the "Every limit" table', () => {
    it('names each limit once, one option to a row', () => {
      const names = limitRows().map((row) => row.name);
      expect(names.length).to.be.greaterThan(30);
      expect(names.filter((name) => !/^(tasks\.)?[a-z]\w*$/.test(name))).to.deep.equal([]);
      expect(names.filter((name, i) => names.indexOf(name) !== i)).to.deep.equal([]);
    });

    it('gives each row where it is set, its default, its unit and what the client gets beyond it', () => {
      const incomplete = limitRows().filter((row) => row.cells.length !== 4 || row.cells.some((cell) => cell === ''));
      expect(incomplete.map((row) => row.name)).to.deep.equal([]);
    });

    it('names only options that exist', () => {
      const declared = sources(join(ROOT, 'lib')).map((file) => readFileSync(file, 'utf8')).join('\n');
      const missing = limitRows().map((row) => row.name.split('.').pop()!).filter((name) => !new RegExp(`readonly ${name}\\??:`).test(declared));
      expect(missing).to.deep.equal([]);
    });

    it('names every limit option of the server, HTTP, stdio, tasks, event store, OAuth and extension options', () => {
      const declared = declaredLimits();
      expect(declared).to.include.members(['maxBodyBytes', 'maxSessions', 'maxLineBytes', 'tasks.minTtlMs', 'maxTokenLength']);
      const rows = new Set(limitRows().map((row) => row.name));
      expect([...new Set(declared)].filter((name) => !rows.has(name))).to.deep.equal([]);
    });
  });
});
