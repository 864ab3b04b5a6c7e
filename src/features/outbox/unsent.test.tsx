import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { AppDatabase, getAppDatabase, type OutboxRow } from '../../lib/db/database';
import { countUnsent, enqueue, readOutbox, storeFile, writeWithOutbox, type UnreadableOutboxRow } from '../../lib/outbox/outbox';
import { DialogProvider } from '../../ui/dialog';
import { UnsentItem } from './components/unsent-item';
import type { UnsentActions } from './hooks';
import { OutboxKindsProvider } from './kinds-context';
import type { DescribeUnsentRow, UnsentRowView } from './kinds';
import { UnsentList } from './pages/unsent-page';
import { discardUnreadableUnsent, discardUnsent } from './store';

const opened: AppDatabase[] = [];
afterEach(async () => {
  cleanup();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`unsent-${Math.random()}`);
  opened.push(db);
  return db;
}

const row: OutboxRow = {
  seq: 1,
  id: 'k1',
  ownerUserId: 'u1',
  kind: 'note.create',
  method: 'POST',
  path: '/api/v1/notes',
  body: { title: 'Shorter changeover' },
  fileIds: [],
  entityKey: 'notes:n1',
  status: 'failed',
  attempts: 1,
  nextAttemptAt: 0,
  lastError: { status: 400, message: 'Validation failed', errors: { title: 'Title is too long' } },
  createdAt: Date.parse('2026-03-01T10:00:00Z'),
  updatedAt: Date.parse('2026-03-01T10:00:00Z'),
};

/** A registry as the app gives one: this screen names no kind itself. */
const describeRow: DescribeUnsentRow = (item): UnsentRowView =>
  item.kind === 'note.create'
    ? {
        label: { id: 'outbox.kind.suggestionCreate', defaultMessage: 'Proposal “{title}”' },
        values: { title: String((item.body as { title?: unknown }).title) },
        editHref: `/notes/edit?resend=${item.id}`,
      }
    : { label: { id: 'outbox.kind.unknown', defaultMessage: 'A change' }, values: {}, editHref: null };

function renderWith(children: ReactNode, options: { kinds?: DescribeUnsentRow; locale?: 'en' | 'ru' } = {}) {
  const { hook } = memoryLocation({ path: '/unsent' });
  const content = options.kinds ? <OutboxKindsProvider describe={options.kinds}>{children}</OutboxKindsProvider> : children;
  render(
    <IntlProvider locale={options.locale ?? 'en'} messages={options.locale === 'ru' ? ru : en}>
      <DialogProvider>
        <Router hook={hook}>{content}</Router>
      </DialogProvider>
    </IntlProvider>,
  );
}

function renderItem(item: OutboxRow, onDiscard: (id: string) => Promise<void>, kinds: DescribeUnsentRow | undefined = describeRow) {
  renderWith(
    <ul>
      <UnsentItem row={item} onRetry={() => Promise.resolve()} onDiscard={onDiscard} />
    </ul>,
    { kinds },
  );
}

function fakeActions(): UnsentActions & { [K in keyof UnsentActions]: ReturnType<typeof vi.fn> } {
  return { retry: vi.fn(() => Promise.resolve()), discard: vi.fn(() => Promise.resolve()), discardUnreadable: vi.fn(() => Promise.resolve()) };
}

async function confirmInDialog(user: ReturnType<typeof userEvent.setup>, name: string) {
  const dialog = await screen.findByRole('dialog');
  await user.click(within(dialog).getByRole('button', { name }));
  return dialog;
}

describe('the Unsent screen item', () => {
  it("shows what (as the app's registry names it), the state, the last error and the way to edit and resend", () => {
    renderItem(row, () => Promise.resolve());
    expect(screen.getByText('Proposal “Shorter changeover”')).toBeTruthy();
    expect(screen.getByText('Refused by the server')).toBeTruthy();
    expect(screen.getByText(/Last try: Validation failed/)).toBeTruthy();
    expect(screen.getByText('Title is too long')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit and resend' }).getAttribute('href')).toBe('/notes/edit?resend=k1');
  });

  it('offers "edit and resend" only while the server refuses the row, never while it waits or is being sent', () => {
    for (const status of ['conflict', 'failed', 'pending', 'sending'] as const) {
      renderItem({ ...row, status }, () => Promise.resolve());
      expect(screen.queryByRole('link', { name: 'Edit and resend' }) !== null, status).toBe(status === 'conflict' || status === 'failed');
      cleanup();
    }
  });

  it('calls a row of a kind nobody declared "A change", with retry and discard but nothing to edit', () => {
    renderItem({ ...row, kind: 'goal.approve' }, () => Promise.resolve(), undefined);
    expect(screen.getByText('A change')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit and resend' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Discard' })).toBeTruthy();
  });

  it('discards nothing when the confirmation is closed', async () => {
    const user = userEvent.setup();
    const onDiscard = vi.fn(() => Promise.resolve());
    renderItem(row, onDiscard);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    const dialog = await confirmInDialog(user, 'Keep it');
    expect(dialog.textContent).toContain('will be deleted from this device and never sent');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onDiscard).not.toHaveBeenCalled();
  });

  it('discards the item once the user confirms', async () => {
    const user = userEvent.setup();
    const onDiscard = vi.fn(() => Promise.resolve());
    renderItem(row, onDiscard);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    await confirmInDialog(user, 'Discard');
    await waitFor(() => expect(onDiscard).toHaveBeenCalledWith('k1'));
  });
});

describe('a refused change beside what the server holds', () => {
  it('shows a conflict with what happened on the server and a link to open what it changed', () => {
    const kinds: DescribeUnsentRow = () => ({ label: { id: 'outbox.kind.unknown', defaultMessage: 'A change' }, values: {}, editHref: null, viewHref: '/things/t1' });
    renderItem({ ...row, status: 'conflict', lastError: { status: 409, message: 'Someone else decided it first.' } }, () => Promise.resolve(), kinds);
    expect(screen.getByText('Meanwhile on the server: Someone else decided it first.')).toBeTruthy();
    // A kind that names no words for the link gets the screen's own.
    expect(screen.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/things/t1');
  });

  it('hands the kind the device copy of the entity the row changes, so it can name it', async () => {
    const db = getAppDatabase();
    await db.suggestions.put({ id: 's9', companyId: 'c1', title: 'Lighter trolleys', ownerUserId: 'u1' } as never);
    const kinds: DescribeUnsentRow = (item, entity) => ({
      label: { id: 'outbox.kind.suggestionCreate', defaultMessage: 'Proposal “{title}”' },
      values: { title: typeof entity === 'object' && entity !== null && 'title' in entity ? String(entity.title) : '?' },
      editHref: null,
      viewHref: `/proposals/${item.entityKey}`,
      viewLabel: { id: 'outbox.view.suggestion', defaultMessage: 'Open the proposal' },
    });
    renderItem({ ...row, entityKey: 'suggestions:s9' }, () => Promise.resolve(), kinds);
    expect(await screen.findByText('Proposal “Lighter trolleys”')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the proposal' })).toBeTruthy();
    await db.suggestions.clear();
  });
});

describe('the Unsent list', () => {
  const unreadable: UnreadableOutboxRow = { seq: 2, id: null, kind: 'goal.approve', createdAt: null };

  it('lists the rows this version cannot read among the others, in send order, with discard only', () => {
    renderWith(<UnsentList rows={[row, { ...row, seq: 3, id: 'k3' }]} unreadable={[unreadable]} actions={fakeActions()} />, { kinds: describeRow });
    const items = screen.getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('data-status'))).toEqual(['failed', 'unreadable', 'failed']);
    const odd = items[1]!;
    expect(within(odd).getByText('A change this version of the app cannot read')).toBeTruthy();
    expect(within(odd).getByText('Cannot be sent')).toBeTruthy();
    expect(within(odd).queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(within(odd).queryByRole('link')).toBeNull();
  });

  it('discards an unreadable row by its place in the outbox, after confirmation only', async () => {
    const user = userEvent.setup();
    const actions = fakeActions();
    renderWith(<UnsentList rows={[]} unreadable={[unreadable]} actions={actions} />);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    await confirmInDialog(user, 'Keep it');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(actions.discardUnreadable).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Discard' }));
    const dialog = await confirmInDialog(user, 'Discard');
    expect(dialog.textContent).toContain('A change this version of the app cannot read will be deleted');
    await waitFor(() => expect(actions.discardUnreadable).toHaveBeenCalledWith(2));
    expect(actions.discard).not.toHaveBeenCalled();
  });

  it('speaks Russian too', () => {
    renderWith(<UnsentList rows={[]} unreadable={[{ ...unreadable, createdAt: Date.parse('2026-03-01T10:00:00Z') }]} actions={fakeActions()} />, { locale: 'ru' });
    expect(screen.getByText('Изменение, которое эта версия приложения не может прочитать')).toBeTruthy();
    expect(screen.getByText('Не может быть отправлено')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Удалить' })).toBeTruthy();
  });

  it('says everything has been sent when nothing waits', () => {
    renderWith(<UnsentList rows={[]} unreadable={[]} actions={fakeActions()} />);
    expect(screen.getByRole('status').textContent).toBe('Everything has been sent.');
  });
});

async function seed(db: AppDatabase, ownerUserId: string, suggestionId: string) {
  return writeWithOutbox(db, [db.suggestions], async () => {
    await db.suggestions.put({ id: suggestionId, companyId: 'c1', ownerUserId } as never);
    const file = await storeFile(db, { ownerUserId, data: new Uint8Array([1]).buffer, type: 'image/png', name: 'a.png' });
    return enqueue(db, {
      ownerUserId,
      kind: 'suggestion.create',
      method: 'POST',
      path: '/api/v1/companies/c1/suggestions',
      body: {},
      entityKey: `suggestions:${suggestionId}`,
      fileIds: [file.id],
    });
  });
}

/** A row an older or newer version wrote: it fails today's struct (no status, a number for a body's path). */
async function seedUnreadable(db: AppDatabase, ownerUserId: string): Promise<number> {
  return db.outbox.add({ ownerUserId, id: `odd-${ownerUserId}`, kind: 'goal.approve', path: 42, createdAt: 1, fileIds: [], entityKey: 'goals:g1' } as never);
}

describe('the Unsent list and the badge agree', () => {
  it('lists every row the badge counts, the unreadable ones too', async () => {
    const db = openDb();
    await seed(db, 'u1', 's1');
    await seedUnreadable(db, 'u1');
    await seedUnreadable(db, 'u2');
    const contents = await readOutbox(db, 'u1');
    renderWith(<UnsentList rows={contents.rows} unreadable={contents.unreadable} actions={fakeActions()} />, { kinds: describeRow });
    expect(screen.getAllByRole('listitem')).toHaveLength(await countUnsent(db, 'u1'));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
  });
});

describe('discardUnsent', () => {
  it("removes the row, its photos and the proposal that only existed on this device, and not another user's", async () => {
    const db = openDb();
    const mine = await seed(db, 'u1', 's1');
    const theirs = await seed(db, 'u2', 's2');

    expect(await discardUnsent(db, 'u2', mine.id)).toBe(false);
    expect(await discardUnsent(db, 'u1', mine.id)).toBe(true);

    expect(await db.outbox.toArray()).toEqual([expect.objectContaining({ id: theirs.id })]);
    expect((await db.files.toArray()).map((file) => file.ownerUserId)).toEqual(['u2']);
    expect((await db.suggestions.toArray()).map((s) => s.id)).toEqual(['s2']);
  });
});

describe('discardUnreadableUnsent', () => {
  it("removes the user's unreadable row, so the badge goes down with the list, and never another user's", async () => {
    const db = openDb();
    const mine = await seedUnreadable(db, 'u1');
    const theirs = await seedUnreadable(db, 'u2');
    expect(await countUnsent(db, 'u1')).toBe(1);

    expect(await discardUnreadableUnsent(db, 'u1', theirs)).toBe(false);
    expect(await discardUnreadableUnsent(db, 'u1', mine)).toBe(true);

    expect(await countUnsent(db, 'u1')).toBe(0);
    expect(await countUnsent(db, 'u2')).toBe(1);
  });
});
