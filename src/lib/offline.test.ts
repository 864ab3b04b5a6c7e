import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnectivity } from './connectivity';
import { AppDatabase } from './db/database';
import { afterEnqueue, countUnsentNow, drainNow, followConnectivity, offlineUserId, startOffline, stopOffline } from './offline';
import { enqueue, writeWithOutbox } from './outbox/outbox';
import { drainOutbox } from './outbox/triggers';

const opened: AppDatabase[] = [];
afterEach(async () => {
  stopOffline();
  vi.unstubAllGlobals();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function seed(db: AppDatabase, ownerUserId: string, title: string) {
  return writeWithOutbox(db, [], () =>
    enqueue(db, { ownerUserId, kind: 'test.create', method: 'POST', path: `/api/v1/things/${title}`, body: { title }, entityKey: `things:${title}` }),
  );
}

/** A main-service that accepts every write and records its path. */
function serve() {
  const sent: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.includes('/api/v1/things/')) sent.push(url.slice(url.indexOf('/things/') + '/things/'.length));
      return Promise.resolve(new Response(JSON.stringify({ data: null, message: 'OK' }), { status: 201, headers: { 'Content-Type': 'application/json' } }));
    }),
  );
  return sent;
}

describe('the offline machinery of the signed-in user', () => {
  it("sends only the signed-in user's rows, never another user's on the same device", async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    await seed(db, 'u1', 'first-user');
    await seed(db, 'u2', 'second-user');
    const sent = serve();
    const connectivity = createConnectivity({ fetch: () => Promise.reject(new Error('not probed here')) });

    startOffline({ user: { id: 'u2', companies: [] }, handlers: {}, db, connectivity });
    expect(offlineUserId()).toBe('u2');
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(1));
    expect(sent).toEqual(['second-user']);
    expect((await db.outbox.toArray()).map((row) => row.ownerUserId)).toEqual(['u1']);
    expect(await countUnsentNow(db)).toBe(0);
  });

  it('sends nothing more after sign-out (stop), and the rows stay for their owner', async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    const sent = serve();
    const connectivity = createConnectivity({ fetch: () => Promise.reject(new Error('not probed here')) });
    startOffline({ user: { id: 'u1', companies: [] }, handlers: {}, db, connectivity });
    stopOffline();
    await seed(db, 'u1', 'after-sign-out');
    drainNow();
    expect(offlineUserId()).toBeNull();
    expect(await countUnsentNow(db)).toBe(0);
    expect(await db.outbox.count()).toBe(1);
    expect(sent).toEqual([]);
  });
});

/** A main-service whose pull answers an empty page for every company; records the companies pulled. */
function servePulls() {
  const pulled: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
      if (url.pathname.endsWith('/sync/pull')) pulled.push(url.searchParams.get('companyId') ?? '');
      const data = { changes: [], nextCursor: '1', hasMore: false, reset: false };
      return Promise.resolve(new Response(JSON.stringify({ data, message: 'OK' }), { status: 200, headers: { 'Content-Type': 'application/json' } }));
    }),
  );
  return pulled;
}

describe("the pulls follow the user's company list", () => {
  const membership = (id: string) => ({ id, name: `Company ${id}`, roles: ['OWNER'] });

  it('pulls a company the user has just created or joined at once, without a reload, and keeps pulling the others', async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    const pulled = servePulls();
    const connectivity = createConnectivity({ fetch: () => Promise.reject(new Error('not probed here')) });
    startOffline({ user: { id: 'u1', companies: [membership('c1')] }, handlers: {}, db, connectivity });
    await vi.waitFor(() => expect(pulled).toContain('c1'));
    expect(pulled).not.toContain('c2');

    // `GET /user` fetched again after creating a company: the layout starts the machinery with the new list.
    startOffline({ user: { id: 'u1', companies: [membership('c1'), membership('c2')] }, handlers: {}, db, connectivity });
    await vi.waitFor(() => expect(pulled).toContain('c2'));
    expect(offlineUserId()).toBe('u1');
    await vi.waitFor(async () => expect((await db.syncState.toArray()).map((state) => state.companyId).sort()).toEqual(['c1', 'c2']));

    // From then on every pull run covers both.
    pulled.length = 0;
    window.dispatchEvent(new Event('focus'));
    await vi.waitFor(() => expect([...pulled].sort()).toEqual(['c1', 'c2']));
  });

  it('stops pulling a company the user no longer belongs to, and pulls nothing again when the list is the same', async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    const pulled = servePulls();
    const connectivity = createConnectivity({ fetch: () => Promise.reject(new Error('not probed here')) });
    startOffline({ user: { id: 'u1', companies: [membership('c1'), membership('c2')] }, handlers: {}, db, connectivity });
    await vi.waitFor(() => expect([...pulled].sort()).toEqual(['c1', 'c2']));

    pulled.length = 0;
    startOffline({ user: { id: 'u1', companies: [membership('c1'), membership('c2')] }, handlers: {}, db, connectivity });
    startOffline({ user: { id: 'u1', companies: [membership('c2')] }, handlers: {}, db, connectivity });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulled).toEqual([]);

    window.dispatchEvent(new Event('focus'));
    await vi.waitFor(() => expect(pulled).toEqual(['c2']));
  });
});

/** Injected timers for the connectivity probe: the test fires the armed one by hand. */
function probeTimers() {
  let armed: { cb: () => void; ms: number } | null = null;
  return {
    setTimeout: (cb: () => void, ms: number) => {
      armed = { cb, ms };
      return armed;
    },
    clearTimeout: (handle: unknown) => {
      if (armed === handle) armed = null;
    },
    get armedMs() {
      return armed?.ms ?? null;
    },
    fire() {
      const timer = armed;
      armed = null;
      timer?.cb();
    },
  };
}

const healthy = () => Promise.resolve(new Response(JSON.stringify({ data: { status: 'ok' } }), { status: 200, headers: { 'Content-Type': 'application/json' } }));

describe('when the network comes back behind the device (no online event, navigator.onLine unchanged)', () => {
  it('probes often while rows wait and sends them without anyone touching the device, attempts unchanged', async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    let up = false;
    const sent: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL) => {
        if (!up) return Promise.reject(new TypeError('Failed to fetch'));
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (url.includes('/things/')) sent.push(url.slice(url.indexOf('/things/') + '/things/'.length));
        return Promise.resolve(new Response(JSON.stringify({ data: null, message: 'OK' }), { status: 201, headers: { 'Content-Type': 'application/json' } }));
      }),
    );
    const timers = probeTimers();
    let time = 0;
    const connectivity = createConnectivity({
      fetch: () => (up ? healthy() : Promise.reject(new TypeError('Failed to fetch'))),
      now: () => time,
      setTimeout: timers.setTimeout,
      clearTimeout: timers.clearTimeout,
    });
    connectivity.start();
    for (let i = 0; i < 3; i += 1) await seed(db, 'u1', `queued-${i}`);
    const registered: number[] = [];
    startOffline({ user: { id: 'u1', companies: [] }, handlers: {}, db, connectivity, requestSync: () => Promise.resolve(registered.push(1) > 0) });

    // The first drain meets the dead network: the probe turns urgent, and Background Sync is asked again.
    await vi.waitFor(() => expect(connectivity.isUrgent()).toBe(true));
    await vi.waitFor(() => expect(registered.length).toBeGreaterThanOrEqual(1));
    const delays: (number | null)[] = [];
    for (let i = 0; i < 4; i += 1) {
      delays.push(timers.armedMs);
      time += timers.armedMs ?? 0;
      timers.fire();
      await vi.waitFor(() => expect(timers.armedMs).not.toBeNull());
    }
    expect(delays).toEqual([2_000, 4_000, 8_000, 8_000]);
    expect(sent).toEqual([]);
    // Refusals were not attempts: nothing grew a backoff to sit out once the server answers.
    expect((await db.outbox.toArray()).map((row) => row.attempts)).toEqual([0, 0, 0]);

    // The server answers again: the next probe (at most 8 s later) brings every row in.
    up = true;
    time += timers.armedMs ?? 0;
    timers.fire();
    await vi.waitFor(() => expect(sent).toEqual(['queued-0', 'queued-1', 'queued-2']));
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    await vi.waitFor(() => expect(connectivity.isUrgent()).toBe(false));
    connectivity.stop();
  });

  it('treats every online answer of the urgent mode as a reconnect of the outbox, and only a return as one of the pulls', async () => {
    let state: 'online' | 'offline' = 'offline';
    const connectivity = createConnectivity({ fetch: () => (state === 'online' ? healthy() : Promise.reject(new TypeError('down'))) });
    const seen: string[] = [];
    const stop = followConnectivity(connectivity, { outbox: () => seen.push('outbox'), cameBack: () => seen.push('pulls'), offline: () => seen.push('offline') });
    await connectivity.probe();
    expect(seen).toEqual(['offline']);
    seen.length = 0;
    state = 'online';
    await connectivity.probe();
    expect(seen).toEqual(['pulls', 'outbox']);
    await connectivity.probe();
    expect(seen).toEqual(['pulls', 'outbox']);
    connectivity.setUrgent(true);
    await connectivity.probe();
    expect(seen).toEqual(['pulls', 'outbox', 'outbox']);
    stop();
  });
});

describe('Background Sync from the page', () => {
  it('registers the tag again when its own drain leaves rows waiting, not when it sent everything', async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    let up = false;
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        up ? Promise.resolve(new Response(JSON.stringify({ data: null, message: 'OK' }), { status: 201, headers: { 'Content-Type': 'application/json' } })) : Promise.reject(new TypeError('Failed to fetch')),
      ),
    );
    const connectivity = createConnectivity({ fetch: () => Promise.reject(new Error('not probed here')) });
    let registered = 0;
    await seed(db, 'u1', 'waiting');
    startOffline({ user: { id: 'u1', companies: [] }, handlers: {}, db, connectivity, requestSync: () => Promise.resolve((registered += 1) > 0) });
    await vi.waitFor(() => expect(registered).toBe(1));

    up = true;
    drainNow();
    await vi.waitFor(async () => expect(await db.outbox.count()).toBe(0));
    drainNow();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(registered).toBe(1);
    // After a local write the tag is registered at once, as before.
    afterEnqueue();
    expect(registered).toBe(2);
    await drainOutbox();
  });
});

describe("the mirror follows the user's companies", () => {
  const membership = (id: string) => ({ id, name: `Company ${id}`, roles: ['OWNER'] });

  it("drops a company's mirror when it leaves the user's list, and pulls after a drain that sent", async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    const pulled = servePulls();
    const connectivity = createConnectivity({ fetch: () => Promise.reject(new Error('not probed here')) });
    startOffline({ user: { id: 'u1', companies: [membership('c1'), membership('c2')] }, handlers: {}, db, connectivity, requestSync: () => Promise.resolve(false) });
    await vi.waitFor(async () => expect((await db.syncState.toArray()).map((state) => state.companyId).sort()).toEqual(['c1', 'c2']));
    await db.table('departments').bulkPut([
      { ownerUserId: 'u1', id: 'd1', companyId: 'c1', name: 'Gone' },
      { ownerUserId: 'u1', id: 'd2', companyId: 'c2', name: 'Kept' },
    ]);

    startOffline({ user: { id: 'u1', companies: [membership('c2')] }, handlers: {}, db, connectivity });
    await vi.waitFor(async () => expect((await db.departments.toArray()).map((row) => row.id)).toEqual(['d2']));
    expect((await db.syncState.toArray()).map((state) => state.companyId)).toEqual(['c2']);

    // A drain that sent something asks the pulls to catch up.
    pulled.length = 0;
    await seed(db, 'u1', 'sent-now');
    drainNow();
    await vi.waitFor(() => expect(pulled).toContain('c2'));
  });
});

describe('the remembered session (a cold start without a network)', () => {
  const user = {
    id: 'u1',
    email: 'employee@demo.local',
    telephone: null,
    hrInviterData: null,
    department: null,
    company: null,
    fullName: 'Ivan Ivanov',
    firstName: 'Ivan',
    lastName: 'Ivanov',
    middleName: null,
    position: null,
    otherPosition: null,
    mainGoal: null,
    role: 'EMPLOYEE',
    email_verified_at: '2025-01-01T00:00:00Z',
    active: true,
    username: 'employee@demo.local',
    authorities: [],
    emailVerified: true,
    accountNonExpired: true,
    accountNonLocked: true,
    credentialsNonExpired: true,
    enabled: true,
    locale: 'en' as const,
    companies: [{ id: 'c1', name: 'Demo', roles: ['EMPLOYEE'] }],
  };

  it('gives back what was remembered, and nothing after sign-out forgot it', async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    const { forgetSession, recallSession, rememberSession } = await import('./offline');
    const enums = { enums: { ROLE: [{ id: 'EMPLOYEE', title: 'Employee' }] }, supportLink: 'https://t.me/support' };
    const units = [{ id: 'RUB', title: 'Rouble', type: 'CURRENCY' }];
    await rememberSession({ user, enums, units }, db, localStorage);
    expect(await recallSession(db, localStorage)).toEqual({ user, enums, units });
    forgetSession(localStorage);
    expect(await recallSession(db, localStorage)).toBeNull();
  });

  it('gives nothing back for a remembered user that does not check out', async () => {
    const db = new AppDatabase(`offline-${Math.random()}`);
    opened.push(db);
    const { recallSession } = await import('./offline');
    localStorage.setItem('offlineLastUser', JSON.stringify({ id: 'u1' }));
    expect(await recallSession(db, localStorage)).toBeNull();
    localStorage.removeItem('offlineLastUser');
  });
});
