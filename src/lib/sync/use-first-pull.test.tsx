import 'fake-indexeddb/auto';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as ConnectivityModule from '../connectivity';
import { getAppDatabase } from '../db/database';
import { HttpError } from '../http';
import { clearSyncProblem, reportSyncProblem } from './problems';
import { useFirstPullPending } from './use-first-pull';
import { pulledToEnd } from '../../../tests/fixtures/rows';

const device = vi.hoisted(() => ({ network: 'online' }));

vi.mock('../connectivity', async (importOriginal) => ({
  ...(await importOriginal<typeof ConnectivityModule>()),
  useConnectivity: () => device.network,
}));

afterEach(async () => {
  cleanup();
  device.network = 'online';
  clearSyncProblem();
  await getAppDatabase().syncState.clear();
});

async function pendingOnce(): Promise<boolean | undefined> {
  const { result } = renderHook(() => useFirstPullPending('u1', 'c1'));
  await waitFor(() => expect(result.current).not.toBeUndefined());
  return result.current;
}

describe('useFirstPullPending', () => {
  it('is pending while the company was never pulled to its end and the device may reach the server', async () => {
    expect(await pendingOnce()).toBe(true);
    cleanup();
    await getAppDatabase().syncState.put({ ownerUserId: 'u1', companyId: 'c1', cursor: 'page-2', pulledAt: Date.now(), caughtUpAt: null });
    expect(await pendingOnce()).toBe(true);
  });

  it('is over once a pull came to the end, for good', async () => {
    await getAppDatabase().syncState.put(pulledToEnd('u1', 'c1'));
    expect(await pendingOnce()).toBe(false);
  });

  it('is not pending when the device is offline or the pull failed: nothing is on its way then', async () => {
    device.network = 'offline';
    expect(await pendingOnce()).toBe(false);
    cleanup();
    device.network = 'online';
    reportSyncProblem('c1', new HttpError(500, null));
    expect(await pendingOnce()).toBe(false);
  });
});
