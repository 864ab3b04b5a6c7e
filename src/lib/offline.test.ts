import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConnectivity } from './connectivity';
import { AppDatabase } from './db/database';
import { countUnsentNow, drainNow, offlineUserId, startOffline, stopOffline } from './offline';
import { enqueue, writeWithOutbox } from './outbox/outbox';

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
