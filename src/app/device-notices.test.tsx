import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ru from '../../locales/ru.json';
import { AppDatabase, DB_VERSIONS } from '../lib/db/database';
import { clearSyncProblem, reportSyncProblem } from '../lib/sync/problems';
import { HttpError } from '../lib/http';
import { DeviceNotices } from './device-notices';

function quotaError(): Error {
  const inner = new Error('quota');
  inner.name = 'QuotaExceededError';
  return Object.assign(new Error('aborted'), { name: 'AbortError', inner });
}

function renderNotices(reload = vi.fn()) {
  render(
    <IntlProvider locale="ru" messages={ru}>
      <DeviceNotices reload={reload} />
    </IntlProvider>,
  );
  return reload;
}

describe('DeviceNotices', () => {
  afterEach(() => {
    cleanup();
    act(() => clearSyncProblem());
  });

  it('says in Russian that the device is out of storage when a pull hit the quota, and goes when a pull succeeds', () => {
    renderNotices();
    expect(screen.queryByRole('status')).toBeNull();
    act(() => void reportSyncProblem('company-1', quotaError()));
    expect(screen.getByRole('status').textContent).toContain('На устройстве закончилось место');
    act(() => clearSyncProblem('company-1'));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says nothing for a pull that only got no answer (the network is down)', () => {
    renderNotices();
    act(() => void reportSyncProblem('company-1', new HttpError(0, null)));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('asks to reload when another tab opens a newer schema, which closes this tab’s database', async () => {
    const name = `notices-${crypto.randomUUID()}`;
    const older = new AppDatabase(name, DB_VERSIONS.slice(0, 1));
    await older.open();
    const reload = renderNotices();
    const newer = new AppDatabase(name);
    await act(async () => {
      await newer.open();
    });
    expect(screen.getByRole('alert').textContent).toContain('более новая версия');
    await userEvent.click(screen.getByRole('button', { name: 'Перезагрузить' }));
    expect(reload).toHaveBeenCalledOnce();
    expect(older.isOpen()).toBe(false);
    newer.close();
  });
});
