import 'reflect-metadata';
import { PhantomServer, Resource, ResourceContent, ResourceNotFoundError } from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

/** A Map, not a plain object: a slug from the client must never reach `__proto__` or `constructor`. */
const NOTES = new Map<string, string>([
  ['welcome', '# Welcome\nThis note is served by a resource template.'],
  ['roadmap', '# Roadmap\n1. Resources\n2. Prompts\n3. Elicitation'],
]);

/** A 1x1 transparent PNG, to show binary contents. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** Fixed resources, templates with a lister and completion, text, JSON and a binary blob. */
export class NoteResources {
  @Resource('notes://readme', { description: 'What this server holds', mimeType: 'text/markdown' })
  readme(): string {
    return '# Notes server\nRead `notes://notes/{slug}` for a note.';
  }

  @Resource('notes://stats', { description: 'Counts, as JSON' })
  stats() {
    return ResourceContent.text({ notes: NOTES.size });
  }

  @Resource('notes://pixel.png', { description: 'A tiny image', mimeType: 'image/png' })
  pixel() {
    return ResourceContent.blob(PIXEL);
  }

  @Resource('notes://notes/{slug}', {
    description: 'A note by its slug',
    mimeType: 'text/markdown',
    list: 'allNotes',
    complete: { slug: 'slugsStartingWith' },
  })
  note({ slug }: { slug: string }): string {
    const text = NOTES.get(slug);
    // Returning undefined says the same; the error lets the client read why (-32002, with the URI).
    if (text === undefined) throw new ResourceNotFoundError(`No note named ${slug}`);
    return text;
  }

  allNotes() {
    return [...NOTES.keys()].map((slug) => ({ uri: `notes://notes/${slug}`, name: slug }));
  }

  slugsStartingWith(prefix: string): string[] {
    return [...NOTES.keys()].filter((slug) => slug.startsWith(prefix));
  }
}

export function createServer(): PhantomServer {
  return new PhantomServer({ name: 'notes', version: '1.0.0', providers: [NoteResources], store: storeFromEnv() });
}

if (require.main === module) void runSample(createServer());
