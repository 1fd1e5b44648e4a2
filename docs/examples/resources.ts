// Resources: fixed URIs, a template with a lister and completion, MIME types, a blob, files read
// safely, and updates to subscribers. Included in docs/guide/resources.md; run by
// spec/docs/examples/resources.spec.ts.
import 'reflect-metadata';
// #region fixed
import { PhantomServer, Resource, ResourceContent } from 'phantom-mcp';

/** A 1x1 transparent PNG. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

export class AboutResources {
  @Resource('notes://readme', { description: 'What this server holds', mimeType: 'text/markdown' })
  readme(): string {
    return '# Notes\nRead `notes://notes/{slug}` for a note.'; // text, as text/markdown
  }

  @Resource('notes://stats', { description: 'Counts, as JSON' })
  stats() {
    return { notes: 2 }; // an object: its JSON, as application/json
  }

  @Resource('notes://pixel.png', { description: 'A tiny image', mimeType: 'image/png' })
  pixel() {
    return ResourceContent.blob(PIXEL); // bytes, sent base64 as a blob
  }
}
// #endregion fixed

// #region template
import { Context, ResourceNotFoundError } from 'phantom-mcp';

export class NoteResources {
  /** A Map, not a plain object: a slug from the client must never reach `__proto__`. */
  readonly notes = new Map<string, string>([
    ['welcome', '# Welcome\nServed by a resource template.'],
    ['roadmap', '# Roadmap\n1. Resources\n2. Prompts'],
  ]);

  @Resource('notes://notes/{slug}', {
    description: 'A note by its slug',
    mimeType: 'text/markdown',
    list: 'allNotes', // resources/list names each note
    complete: { slug: 'slugsStartingWith' }, // completion/complete of {slug}
  })
  note({ slug }: { slug: string }, ctx: Context): string {
    const text = this.notes.get(slug);
    if (text === undefined) throw new ResourceNotFoundError(`No note named ${slug}`);
    ctx.log.debug(`read ${slug}`);
    return text;
  }

  allNotes() {
    return [...this.notes.keys()].map((slug) => ({ uri: `notes://notes/${slug}`, name: slug }));
  }

  slugsStartingWith(prefix: string): string[] {
    return [...this.notes.keys()].filter((slug) => slug.startsWith(prefix));
  }
}
// #endregion template

// #region typed-variables
import { IsInt, Max, Min } from 'class-validator';
import { Field } from 'phantom-mcp';

export class DayParams {
  @Field({ description: 'Day of the year' })
  @IsInt() @Min(1) @Max(366) // the value arrives as text, converted to the declared type first
  day!: number;
}

export class CalendarResources {
  @Resource('calendar://days/{day}', { description: 'A day of the year', mimeType: 'application/json' })
  day({ day }: DayParams) {
    // `day` is a number here
    return ResourceContent.text({ day, weekend: day % 7 === 0 || day % 7 === 6 });
  }
}
// #endregion typed-variables

// #region files
import { realpath, readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { injectable } from 'tsyringe';

/** The folder the files come from: a service, so a test can point it elsewhere. */
@injectable()
export class DocsFolder {
  readonly root = resolve('docs');
}

@injectable()
export class FileResources {
  constructor(private readonly folder: DocsFolder) {}

  @Resource('files://docs/{+path}', { description: 'A file of the docs folder', mimeType: 'text/plain' })
  async file({ path }: { path: string }): Promise<string | undefined> {
    // `path` is decoded and untrusted: '../x', '/etc/x', a link leading out.
    const root = await realpath(this.folder.root);
    const file = await realpath(resolve(root, path)).catch(() => undefined);
    // undefined: not found
    if (file === undefined || !file.startsWith(root + sep)) return undefined;
    return readFile(file, 'utf8').catch(() => undefined);
  }
}
// #endregion files

// #region updates
import { IsString } from 'class-validator';
import { Tool } from 'phantom-mcp';

export class EditArgs {
  @Field({ description: 'The note to change' }) @IsString() slug!: string;
  @Field({ description: 'Its new text' }) @IsString() text!: string;
}

@injectable()
export class NoteEditor {
  constructor(private readonly resources: NoteResources) {}

  @Tool({ description: 'Change a note' })
  async edit(args: EditArgs, ctx: Context): Promise<string> {
    if (!this.resources.notes.has(args.slug)) return `No note named ${args.slug}`;
    this.resources.notes.set(args.slug, args.text);
    await ctx.resourceUpdated(`notes://notes/${args.slug}`); // to every client subscribed to it
    return `Saved ${args.slug}`;
  }
}
// #endregion updates

// #region server
import { container as rootContainer } from 'tsyringe';

export function createServer(): PhantomServer {
  const container = rootContainer.createChildContainer();
  // One set of notes, shared by the resource and the editor:
  container.registerSingleton(NoteResources);
  return new PhantomServer({
    name: 'notes',
    version: '1.0.0',
    providers: [AboutResources, NoteResources, CalendarResources, FileResources, NoteEditor],
    container,
  });
}
// #endregion server
