// The seams: a session store and a bus of your own, given to the server in place of the
// in-process defaults. Included in docs/concepts/seams.md; run by spec/docs/examples/seams.spec.ts.
import 'reflect-metadata';
// #region session-store
import {
  InMemorySessionStore, type SessionChange, type SessionState, type SessionStore,
} from 'phantom-mcp/seams';

/**
 * A session store that counts what the server asks of it, over another store that keeps the
 * sessions. A store of your own (a database, a key-value service) implements the same nine methods.
 */
export class CountingSessionStore implements SessionStore {
  readonly calls = { load: 0, save: 0, update: 0, delete: 0, touch: 0 };

  constructor(private readonly inner: SessionStore = new InMemorySessionStore({ idleMs: 30 * 60_000 })) {}

  load(id: string): Promise<SessionState | undefined> {
    this.calls.load += 1;
    return this.inner.load(id);
  }

  save(state: SessionState): Promise<void> {
    this.calls.save += 1;
    return this.inner.save(state);
  }

  update(id: string, change: SessionChange): Promise<SessionState | undefined> {
    this.calls.update += 1; // `change` is pure: a shared store may run it again on a fresher state
    return this.inner.update(id, change);
  }

  delete(id: string): Promise<boolean> {
    this.calls.delete += 1;
    return this.inner.delete(id);
  }

  touch(id: string): Promise<void> {
    this.calls.touch += 1;
    return this.inner.touch(id);
  }

  subscribers(uri: string): Promise<string[]> {
    return this.inner.subscribers(uri);
  }

  count(): Promise<number> {
    return this.inner.count();
  }

  onExpired(listener: (id: string) => void): () => void {
    return this.inner.onExpired(listener);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
// #endregion session-store

// #region bus
import {
  type BusSubscription, InProcessSessionBus, type ServerListener, type ServerMessage, type SessionBus,
  type SessionListener, type SessionMessage,
} from 'phantom-mcp/seams';

/** A bus that keeps a copy of every server-wide message, over the in-process one. */
export class RecordingBus implements SessionBus {
  readonly broadcasts: ServerMessage[] = [];
  private readonly inner = new InProcessSessionBus();

  publish(sessionId: string, message: SessionMessage): Promise<void> {
    return this.inner.publish(sessionId, message);
  }

  subscribe(sessionId: string, listener: SessionListener): BusSubscription {
    return this.inner.subscribe(sessionId, listener);
  }

  broadcast(message: ServerMessage): Promise<void> {
    this.broadcasts.push(message);
    return this.inner.broadcast(message);
  }

  onBroadcast(listener: ServerListener): BusSubscription {
    return this.inner.onBroadcast(listener);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
// #endregion bus

// #region wiring
import { IsString } from 'class-validator';
import { Field, PhantomServer, Resource, Tool } from 'phantom-mcp';
import { InMemoryTaskStore } from 'phantom-mcp/seams';

export class NoteArgs {
  @Field({ description: 'The note' }) @IsString() text!: string;
}

export class Notes {
  private readonly notes: string[] = [];

  @Tool({ description: 'Adds a note' })
  add(args: NoteArgs): string {
    this.notes.push(args.text);
    return `${this.notes.length} notes`;
  }

  @Resource('notes://all', { description: 'Every note', mimeType: 'text/plain' })
  all(): string {
    return this.notes.join('\n');
  }
}

export function createServer(sessions: SessionStore, bus: SessionBus): PhantomServer {
  return new PhantomServer({
    name: 'notes', version: '1.0.0', providers: [Notes],
    sessionStore: sessions, // where sessions live
    bus, // what carries messages between nodes
    taskStore: new InMemoryTaskStore(), // where tasks live (the default, named here)
  });
}
// #endregion wiring

// #region redis
import { redis } from 'phantom-mcp/redis';

/** Every replica gets the same Redis: sessions, event logs, tasks and the bus, in one option. */
export function replica(url: string): PhantomServer {
  return new PhantomServer({
    name: 'notes', version: '1.0.0', providers: [Notes],
    store: redis(url, { keyPrefix: 'notes:' }), // connects on start(), listen() or connect()
  });
}
// #endregion redis
