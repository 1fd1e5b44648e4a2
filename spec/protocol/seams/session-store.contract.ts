import { expect } from 'chai';
import type { SessionChange, SessionState, SessionStore } from '../../../lib/entries/seams';

/** What the contract sets in each store it builds. */
export interface SessionStoreSettings {
  /** Idle time after which a session expires. */
  readonly idleMs: number;
  /** The store's clock: the contract moves it forward instead of sleeping. */
  readonly now: () => number;
  /** Sessions with a request still running: they never expire. */
  readonly isBusy: (id: string) => boolean;
}

export interface SessionStoreHarness {
  /** A fresh, empty store on the given settings (a shared backend gets a fresh namespace). */
  open(settings: SessionStoreSettings): SessionStore | Promise<SessionStore>;
  /**
   * Resolves once what the store raises on its own (expiry events) has arrived. A store that
   * raises them synchronously, as the in-memory one does, needs nothing here.
   */
  settle?(): Promise<void>;
}

const IDLE_MS = 1_000;

/** A session as the lifecycle creates it, active at `now`. */
export function sessionState(id: string, now: number, subscriptions: readonly string[] = []): SessionState {
  return {
    id, protocolVersion: '2025-11-25', clientInfo: { name: 'contract', version: '1' }, clientCapabilities: {},
    initialized: false, subscriptions, createdAt: now, lastActiveAt: now,
  };
}

const subscribe = (uri: string): SessionChange => (current) => ({ ...current, subscriptions: [...current.subscriptions, uri] });

/**
 * The behaviour every `SessionStore` owes the protocol, run against `harness`: call it inside a
 * `describe` of the store. The in-memory store runs it; a store on a shared backend (Redis) runs
 * the same, so that two replicas can share sessions without either noticing the other.
 */
export function behavesAsSessionStore(harness: SessionStoreHarness): void {
  let time: number;
  let busy: Set<string>;
  let store: SessionStore;
  let expired: string[];

  const elapse = (ms: number) => { time += ms; };
  const settle = () => harness.settle?.() ?? Promise.resolve();

  beforeEach(async () => {
    time = 1_700_000_000_000;
    busy = new Set();
    expired = [];
    store = await harness.open({ idleMs: IDLE_MS, now: () => time, isBusy: (id) => busy.has(id) });
    store.onExpired((id) => expired.push(id));
  });

  afterEach(async () => {
    await store.close();
  });

  describe('#save', () => {
    context('when the session is new', () => {
      it('stores it: load gives back the same state', async () => {
        await store.save(sessionState('s1', time, ['x://a']));
        expect(await store.load('s1')).to.deep.equal(sessionState('s1', time, ['x://a']));
      });
    });

    context('when the caller changes the object after saving it', () => {
      it('keeps what was saved', async () => {
        const state = sessionState('s1', time) as { -readonly [K in keyof SessionState]: SessionState[K] };
        await store.save(state);
        state.initialized = true;
        state.subscriptions = ['x://later'];
        expect(await store.load('s1')).to.deep.include({ initialized: false, subscriptions: [] });
      });
    });

    context('when a session of that id exists', () => {
      it('replaces it whole', async () => {
        await store.save(sessionState('s1', time, ['x://a']));
        await store.save({ ...sessionState('s1', time), initialized: true });
        expect(await store.load('s1')).to.deep.include({ initialized: true, subscriptions: [] });
      });
    });
  });

  describe('#load', () => {
    context('when no session has the id', () => {
      it('gives undefined', async () => {
        expect(await store.load('nobody')).to.equal(undefined);
      });
    });
  });

  describe('#update', () => {
    beforeEach(async () => {
      await store.save(sessionState('s1', time));
    });

    context('when the change gives a new state', () => {
      it('stores it and gives it back', async () => {
        const next = await store.update('s1', subscribe('x://a'));
        expect(next).to.deep.include({ id: 's1', subscriptions: ['x://a'] });
        expect(await store.load('s1')).to.deep.include({ subscriptions: ['x://a'] });
      });
    });

    context('when the change gives undefined (no change)', () => {
      it('leaves the session as it was and gives back its current state', async () => {
        const current = await store.update('s1', () => undefined);
        expect(current).to.deep.equal(sessionState('s1', time));
        expect(await store.load('s1')).to.deep.equal(sessionState('s1', time));
      });
    });

    context('when the session is gone', () => {
      it('gives undefined and does not bring the session back', async () => {
        await store.delete('s1');
        expect(await store.update('s1', subscribe('x://a'))).to.equal(undefined);
        expect(await store.load('s1')).to.equal(undefined);
        expect(await store.count()).to.equal(0);
      });
    });

    context('when the session expired', () => {
      it('gives undefined and does not bring the session back', async () => {
        elapse(IDLE_MS + 1);
        expect(await store.update('s1', subscribe('x://a'))).to.equal(undefined);
        expect(await store.load('s1')).to.equal(undefined);
        expect(await store.subscribers('x://a')).to.deep.equal([]);
      });
    });

    context('when the change throws', () => {
      it('refuses with that error and leaves the session as it was', async () => {
        await store.update('s1', subscribe('x://a'));
        const refusal = new Error('no');
        const outcome = await store.update('s1', (current) => {
          if (current.subscriptions.length > 0) throw refusal;
          return { ...current, initialized: true };
        }).then(() => 'applied', (error: unknown) => error);
        expect(outcome).to.equal(refusal);
        expect(await store.load('s1')).to.deep.include({ initialized: false, subscriptions: ['x://a'] });
      });
    });

    context('when two requests change the session at once (two subscribes started together)', () => {
      it('keeps both changes', async () => {
        await Promise.all([store.update('s1', subscribe('x://a')), store.update('s1', subscribe('x://b'))]);
        expect((await store.load('s1'))!.subscriptions).to.have.members(['x://a', 'x://b']);
      });

      it('keeps every change of many at once', async () => {
        const uris = Array.from({ length: 20 }, (_, i) => `x://${i}`);
        await Promise.all(uris.map((uri) => store.update('s1', subscribe(uri))));
        expect((await store.load('s1'))!.subscriptions).to.have.members(uris);
      });
    });
  });

  describe('#delete', () => {
    context('when the session exists', () => {
      it('removes it and says so', async () => {
        await store.save(sessionState('s1', time));
        expect(await store.delete('s1')).to.equal(true);
        expect(await store.load('s1')).to.equal(undefined);
      });

      it('does not report it as expired', async () => {
        await store.save(sessionState('s1', time));
        await store.delete('s1');
        elapse(IDLE_MS * 10);
        await store.count();
        await settle();
        expect(expired).to.deep.equal([]);
      });
    });

    context('when no session has the id', () => {
      it('says false', async () => {
        expect(await store.delete('nobody')).to.equal(false);
      });
    });
  });

  describe('#touch', () => {
    context('when the session is active', () => {
      it('postpones its expiry by a whole idle period', async () => {
        await store.save(sessionState('s1', time));
        elapse(IDLE_MS - 1);
        await store.touch('s1');
        elapse(IDLE_MS - 1);
        expect(await store.load('s1')).to.deep.include({ id: 's1' });
      });
    });

    context('when no session has the id', () => {
      it('creates nothing', async () => {
        await store.touch('nobody');
        expect(await store.load('nobody')).to.equal(undefined);
        expect(await store.count()).to.equal(0);
      });
    });

    context('when the session was busy past its lifetime and its last request just ended', () => {
      it('keeps it a whole idle period more (the protocol touches a session as each request ends)', async () => {
        await store.save(sessionState('s1', time));
        busy.add('s1');
        elapse(IDLE_MS * 5);
        busy.delete('s1');
        await store.touch('s1');
        elapse(IDLE_MS - 1);
        expect(await store.load('s1')).to.deep.include({ id: 's1' });
        await settle();
        expect(expired).to.deep.equal([]);
      });
    });
  });

  describe('#subscribers', () => {
    context('when sessions are subscribed to different URIs', () => {
      it('names the sessions subscribed to the URI, and only those', async () => {
        await store.save(sessionState('s1', time, ['x://a', 'x://b']));
        await store.save(sessionState('s2', time, ['x://b']));
        await store.save(sessionState('s3', time, ['x://c']));
        expect(await store.subscribers('x://b')).to.have.members(['s1', 's2']);
        expect(await store.subscribers('x://a')).to.deep.equal(['s1']);
        expect(await store.subscribers('x://none')).to.deep.equal([]);
      });
    });

    context('when a subscribed session expired', () => {
      it('leaves it out', async () => {
        await store.save(sessionState('s1', time, ['x://a']));
        elapse(IDLE_MS / 2);
        await store.save(sessionState('s2', time, ['x://a']));
        elapse(IDLE_MS / 2 + 1);
        expect(await store.subscribers('x://a')).to.deep.equal(['s2']);
      });
    });
  });

  describe('#count', () => {
    context('when sessions were saved, and one deleted', () => {
      it('counts the live ones', async () => {
        for (const id of ['s1', 's2', 's3']) await store.save(sessionState(id, time));
        await store.delete('s2');
        expect(await store.count()).to.equal(2);
      });
    });

    context('when a session expired and was never asked for since', () => {
      it('does not count it', async () => {
        await store.save(sessionState('s1', time));
        elapse(IDLE_MS / 2);
        await store.save(sessionState('s2', time));
        elapse(IDLE_MS / 2 + 1);
        expect(await store.count()).to.equal(1);
      });
    });
  });

  describe('#onExpired', () => {
    context('when a session sits idle past its lifetime', () => {
      it('raises the session\'s id, once, by the time the store is next asked about it', async () => {
        await store.save(sessionState('s1', time));
        await store.save(sessionState('s2', time));
        elapse(IDLE_MS / 2);
        await store.touch('s2');
        elapse(IDLE_MS / 2 + 1);
        expect(await store.load('s1')).to.equal(undefined);
        await store.count();
        await settle();
        expect(expired).to.deep.equal(['s1']);
      });
    });

    context('when a session stays busy (a request still running) however long', () => {
      it('never expires it, and expires it once it is idle and no longer busy', async () => {
        await store.save(sessionState('s1', time));
        busy.add('s1');
        for (let period = 0; period < 5; period += 1) {
          elapse(IDLE_MS * 10);
          expect(await store.load('s1'), `after ${period + 1} periods`).to.deep.include({ id: 's1' });
          expect(await store.count()).to.equal(1);
        }
        busy.delete('s1');
        expect(await store.load('s1')).to.equal(undefined);
        await settle();
        expect(expired).to.deep.equal(['s1']);
      });
    });

    context('when the listener stopped listening', () => {
      it('no longer hears expiries', async () => {
        const heard: string[] = [];
        const stop = store.onExpired((id) => heard.push(id));
        stop();
        await store.save(sessionState('s1', time));
        elapse(IDLE_MS + 1);
        await store.load('s1');
        await settle();
        expect(heard).to.deep.equal([]);
        expect(expired).to.deep.equal(['s1']);
      });
    });
  });
}
