import 'fake-indexeddb/auto';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppStateProvider } from '../../lib/app-state';
import { AppDatabase } from '../../lib/db/database';
import type * as Database from '../../lib/db/database';
import { countUnsent, enqueue, writeWithOutbox } from '../../lib/outbox/outbox';
import type { CurrentUser } from '../../domain/user';
import { useUnsentActions } from './hooks';

const device = vi.hoisted(() => ({ db: null as AppDatabase | null, pulls: 0, drains: 0 }));

vi.mock('../../lib/offline', () => ({
  pullNow: () => {
    device.pulls += 1;
  },
  drainNow: () => {
    device.drains += 1;
  },
}));

vi.mock('../../lib/db/database', async (importOriginal) => {
  const original = await importOriginal<typeof Database>();
  return {
    ...original,
    getAppDatabase: () => {
      if (!device.db) throw new Error('no test database');
      return device.db;
    },
  };
});

afterEach(async () => {
  cleanup();
  const db = device.db;
  device.db = null;
  device.pulls = 0;
  device.drains = 0;
  if (db) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  device.db = new AppDatabase(`unsent-hooks-${Math.random()}`);
  return device.db;
}

function wrapper({ children }: { children: ReactNode }) {
  const user = { id: 'u1' } as CurrentUser;
  return (
    <AppStateProvider user={user} config={{} as never} reloadUser={() => Promise.resolve()}>
      {children}
    </AppStateProvider>
  );
}

async function seedReview(db: AppDatabase, ownerUserId: string) {
  return writeWithOutbox(db, [], () =>
    enqueue(db, {
      ownerUserId,
      kind: 'suggestion.review',
      method: 'POST',
      path: '/api/v1/companies/c1/suggestions/s1/review',
      body: { decision: 'APPROVED' },
      entityKey: 'suggestions:s1',
    }),
  );
}

describe('the Unsent screen actions', () => {
  it('ask for a pull at once after a discard, so what the pull skipped for that change is fetched again', async () => {
    const db = openDb();
    const row = await seedReview(db, 'u1');
    const { result } = renderHook(() => useUnsentActions(), { wrapper });
    await act(() => result.current.discard(row.id));
    expect(await countUnsent(db, 'u1')).toBe(0);
    expect(device.pulls).toBe(1);
  });

  it('ask for a pull after discarding an unreadable row too', async () => {
    const db = openDb();
    const seq = await db.outbox.add({ ownerUserId: 'u1', id: 'odd', kind: 'goal.approve', path: 42, createdAt: 1, fileIds: [], entityKey: 'goals:g1' } as never);
    const { result } = renderHook(() => useUnsentActions(), { wrapper });
    await act(() => result.current.discardUnreadable(seq));
    expect(await countUnsent(db, 'u1')).toBe(0);
    expect(device.pulls).toBe(1);
  });

  it('do not pull when nothing was discarded (a row of another user)', async () => {
    const db = openDb();
    const theirs = await seedReview(db, 'u2');
    const { result } = renderHook(() => useUnsentActions(), { wrapper });
    await act(() => result.current.discard(theirs.id));
    expect(await countUnsent(db, 'u2')).toBe(1);
    expect(device.pulls).toBe(0);
  });
});
