import 'reflect-metadata';
import { IsString, MinLength } from 'class-validator';
import { container as rootContainer, injectable } from 'tsyringe';
import {
  Field, ForbiddenError, PhantomServer, RateLimitGuard, RequestLoggingInterceptor, STDERR_DIAGNOSTICS, Tool, ToolError, UseGuards, UseInterceptors,
  type CallHandler, type CanActivate, type Diagnostics, type ExecutionContext, type Interceptor,
} from '../../lib';
import { runSample } from '../run-sample';
import { storeFromEnv } from '../store-from-env';

/** The application's own service: notes, and whether they may change. Registered as a singleton below. */
@injectable()
export class Notebook {
  private readonly notes = new Map<string, string>([['welcome', 'Guards run before a handler, interceptors around it.']]);
  frozen = false;
  /** How many times word_count really counted (the memo answers the rest). */
  counted = 0;

  read(slug: string): string | undefined {
    return this.notes.get(slug);
  }

  write(slug: string, text: string): void {
    this.notes.set(slug, text);
  }
}

/** A guard built by the server's container, so it gets the notebook injected. */
@injectable()
export class UnlessFrozen implements CanActivate {
  constructor(private readonly notebook: Notebook) {}

  canActivate({ target }: ExecutionContext): boolean {
    if (this.notebook.frozen) throw new ForbiddenError(`The notebook is frozen, so ${target} is refused; call unfreeze first`);
    return true;
  }
}

/**
 * An interceptor that answers a call it has seen before from memory, without calling the handler.
 * Named by its class, so each server builds its own (one memo per server, not one per process).
 */
export class Memoize implements Interceptor {
  private readonly answers = new Map<string, unknown>();

  constructor(private readonly max = 100) {}

  async intercept({ target, arguments: args }: ExecutionContext, next: CallHandler): Promise<unknown> {
    const key = `${target} ${JSON.stringify(args)}`;
    if (this.answers.has(key)) return this.answers.get(key);
    const value = await next();
    // Bounded: what a client sends must not grow the memo without end.
    if (this.answers.size >= this.max) this.answers.delete(this.answers.keys().next().value as string);
    this.answers.set(key, value);
    return value;
  }
}

export class SlugArgs {
  @Field({ description: 'The note, e.g. welcome' }) @IsString() @MinLength(1) slug!: string;
}

export class WriteArgs extends SlugArgs {
  @Field({ description: 'What the note says' }) @IsString() text!: string;
}

export class TextArgs {
  @Field({ description: 'Any text' }) @IsString() text!: string;
}

@injectable()
export class NoteReader {
  constructor(private readonly notebook: Notebook) {}

  @Tool({ description: 'Read a note', readOnly: true })
  read(args: SlugArgs) {
    const text = this.notebook.read(args.slug);
    if (text === undefined) throw new ToolError(`No note named ${args.slug}`);
    return text;
  }

  @UseInterceptors(Memoize)
  @Tool({ description: 'Count the words of a text (remembered: the same text is counted once)', readOnly: true })
  word_count(args: TextArgs) {
    this.notebook.counted += 1;
    return { words: args.text.split(/\s+/).filter(Boolean).length, counted: this.notebook.counted };
  }
}

/** Every tool of this class passes the guard first. */
@UseGuards(UnlessFrozen)
@injectable()
export class NoteWriter {
  constructor(private readonly notebook: Notebook) {}

  @Tool({ description: 'Write a note' })
  write(args: WriteArgs) {
    this.notebook.write(args.slug, args.text);
    return `Saved ${args.slug}`;
  }

  @Tool({ description: 'Freeze the notebook: writes are refused until unfreeze' })
  freeze() {
    this.notebook.frozen = true;
    return 'Frozen';
  }
}

@injectable()
export class NoteAdmin {
  constructor(private readonly notebook: Notebook) {}

  @Tool({ description: 'Unfreeze the notebook' })
  unfreeze() {
    this.notebook.frozen = false;
    return 'Unfrozen';
  }
}

/**
 * The server's own members run for every operation: the rate limit (a bucket of 20 calls per
 * session, refilled at 2 a second) and a log line per call with its duration.
 */
export function createServer(diagnostics: Diagnostics = STDERR_DIAGNOSTICS): PhantomServer {
  const container = rootContainer.createChildContainer();
  container.registerSingleton(Notebook);
  const server = new PhantomServer({ name: 'notebook', version: '1.0.0', providers: [NoteReader, NoteWriter, NoteAdmin], container, diagnostics, store: storeFromEnv() });
  return server.use(new RateLimitGuard({ burst: 20, perSecond: 2 }), RequestLoggingInterceptor);
}

if (require.main === module) void runSample(createServer());
