import 'fake-indexeddb/auto';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import { AppDatabase, type OutboxRow } from '../../lib/db/database';
import { enqueue, storeFile, writeWithOutbox } from '../../lib/outbox/outbox';
import { DialogProvider } from '../../ui/dialog';
import { UnsentItem } from './components/unsent-item';
import { discardUnsent } from './store';

const opened: AppDatabase[] = [];
afterEach(async () => {
  cleanup();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

const row: OutboxRow = {
  seq: 1,
  id: 'k1',
  ownerUserId: 'u1',
  kind: 'suggestion.create',
  method: 'POST',
  path: '/api/v1/companies/c1/suggestions',
  body: { title: 'Shorter changeover' },
  fileIds: [],
  entityKey: 'suggestions:s1',
  status: 'failed',
  attempts: 1,
  nextAttemptAt: 0,
  lastError: { status: 400, message: 'Validation failed', errors: { title: 'Title is too long' } },
  createdAt: Date.parse('2026-03-01T10:00:00Z'),
  updatedAt: Date.parse('2026-03-01T10:00:00Z'),
};

function renderItem(onDiscard: (id: string) => Promise<void>) {
  const { hook } = memoryLocation({ path: '/unsent' });
  render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>
        <Router hook={hook}>
          <ul>
            <UnsentItem row={row} onRetry={() => Promise.resolve()} onDiscard={onDiscard} />
          </ul>
        </Router>
      </DialogProvider>
    </IntlProvider>,
  );
}

describe('the Unsent screen item', () => {
  it('shows what, the state, the last error and the way to edit and resend', () => {
    renderItem(() => Promise.resolve());
    expect(screen.getByText('Proposal “Shorter changeover”')).toBeTruthy();
    expect(screen.getByText('Refused by the server')).toBeTruthy();
    expect(screen.getByText(/Last try: Validation failed/)).toBeTruthy();
    expect(screen.getByText('Title is too long')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit and resend' }).getAttribute('href')).toBe('/companies/c1/suggestions/create?resend=k1');
  });

  it('discards nothing when the confirmation is closed', async () => {
    const user = userEvent.setup();
    const onDiscard = vi.fn(() => Promise.resolve());
    renderItem(onDiscard);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('will be deleted from this device and never sent');
    await user.click(screen.getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onDiscard).not.toHaveBeenCalled();
  });

  it('discards the item once the user confirms', async () => {
    const user = userEvent.setup();
    const onDiscard = vi.fn(() => Promise.resolve());
    renderItem(onDiscard);
    await user.click(screen.getByRole('button', { name: 'Discard' }));
    await screen.findByRole('dialog');
    const buttons = screen.getAllByRole('button', { name: 'Discard' });
    // The dialog's button is the last one in the document.
    await user.click(buttons[buttons.length - 1]!);
    await waitFor(() => expect(onDiscard).toHaveBeenCalledWith('k1'));
  });
});

describe('discardUnsent', () => {
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

  it("removes the row, its photos and the proposal that only existed on this device, and not another user's", async () => {
    const db = new AppDatabase(`unsent-${Math.random()}`);
    opened.push(db);
    const mine = await seed(db, 'u1', 's1');
    const theirs = await seed(db, 'u2', 's2');

    expect(await discardUnsent(db, 'u2', mine.id)).toBe(false);
    expect(await discardUnsent(db, 'u1', mine.id)).toBe(true);

    expect(await db.outbox.toArray()).toEqual([expect.objectContaining({ id: theirs.id })]);
    expect((await db.files.toArray()).map((file) => file.ownerUserId)).toEqual(['u2']);
    expect((await db.suggestions.toArray()).map((s) => s.id)).toEqual(['s2']);
  });
});
