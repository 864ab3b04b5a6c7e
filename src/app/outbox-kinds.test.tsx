import 'fake-indexeddb/auto';
import { cleanup, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import type { Suggestion } from '../domain/suggestion';
import { AppDatabase, type OutboxRow } from '../lib/db/database';
import { enqueue, entityKeyOf, writeWithOutbox } from '../lib/outbox/outbox';
import { createHttpClient } from '../lib/http';
import { createReplayer } from '../lib/outbox/replayer';
import { DialogProvider } from '../ui/dialog';
import { OutboxKindsProvider } from '../features/outbox/kinds-context';
import { UnsentList } from '../features/outbox/pages/unsent-page';
import { storeCreatedSuggestion } from '../features/suggestions/store';
import { describeOutboxRow, outboxKindOf, outboxKinds, outboxSuccessHandlers, storeSentEntity } from './outbox-kinds';

const OWNER = '00000000-0000-4000-8000-000000000001';
const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const AT = '2026-03-01T10:00:00.000Z';

const opened: AppDatabase[] = [];
afterEach(async () => {
  cleanup();
  for (const db of opened.splice(0)) {
    db.close();
    await db.delete();
  }
});

function openDb(): AppDatabase {
  const db = new AppDatabase(`outbox-kinds-${Math.random()}`);
  opened.push(db);
  return db;
}

const proposalRow: OutboxRow = {
  seq: 1,
  id: 'k1',
  ownerUserId: OWNER,
  kind: 'suggestion.create',
  method: 'POST',
  path: `/api/v1/companies/${COMPANY}/suggestions`,
  body: { title: 'Shorter changeover' },
  fileIds: [],
  entityKey: 'suggestions:s1',
  status: 'failed',
  attempts: 1,
  nextAttemptAt: 0,
  lastError: { status: 400, message: 'Validation failed' },
  createdAt: Date.parse(AT),
  updatedAt: Date.parse(AT),
};

describe('the outbox-kind registry', () => {
  it('declares each kind once, with a label both catalogues hold', () => {
    const kinds = outboxKinds.map((declared) => declared.kind);
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(kinds).toContain('suggestion.create');
    for (const declared of [...outboxKinds, outboxKindOf('unknown.kind')]) {
      expect(en, declared.label.id).toHaveProperty([declared.label.id as string]);
      expect(ru, declared.label.id).toHaveProperty([declared.label.id as string]);
    }
  });

  it("names a queued proposal by its title and edits it in the proposal form (?resend=<outbox id>)", () => {
    expect(describeOutboxRow(proposalRow)).toEqual({
      label: { id: 'outbox.kind.suggestionCreate', defaultMessage: 'Proposal “{title}”' },
      values: { title: 'Shorter changeover' },
      editHref: `/companies/${COMPANY}/suggestions/create?resend=k1`,
    });
    // The body is stored data: a missing title or an odd path give an empty title and no form, not a crash.
    expect(describeOutboxRow({ ...proposalRow, body: null, path: '/api/v1/elsewhere' })).toMatchObject({ values: { title: '' }, editHref: null });
  });

  it('gives a kind nobody declared the generic label, no edit link and the generic success handler', () => {
    expect(describeOutboxRow({ ...proposalRow, kind: 'goal.approve' })).toEqual({ label: { id: 'outbox.kind.unknown', defaultMessage: 'A change' }, values: {}, editHref: null });
    expect(outboxKindOf('goal.approve').onSuccess).toBe(storeSentEntity);
  });

  it("answers the replayer's lookup with each kind's handler, and storeSentEntity for any other kind", () => {
    expect(outboxSuccessHandlers['suggestion.create']).toBe(storeCreatedSuggestion);
    expect(outboxSuccessHandlers['goal.approve']).toBe(storeSentEntity);
    expect(Object.keys(outboxSuccessHandlers)).toEqual(outboxKinds.map((declared) => declared.kind));
    // Not a thenable, and a row whose kind is a prototype name gets no handler (not Object's own function).
    for (const name of ['then', 'toString', 'constructor', 'hasOwnProperty']) {
      expect(Reflect.get(outboxSuccessHandlers, name), name).toBeUndefined();
    }
  });

  it('stores the answer of an undeclared kind when its entity key names a mirrored table and the answer passes its struct', async () => {
    const db = openDb();
    const goal = { id: 'g1', companyId: COMPANY, title: 'Less scrap' };
    await storeSentEntity({ db, row: { ...proposalRow, kind: 'goal.approve', entityKey: 'goals:g1' }, data: goal });
    expect(await db.goals.get([OWNER, 'g1'])).toEqual({ ...goal, ownerUserId: OWNER });

    await storeSentEntity({ db, row: { ...proposalRow, kind: 'goal.approve', entityKey: 'goals:g2' }, data: { id: 'g2' } });
    await storeSentEntity({ db, row: { ...proposalRow, kind: 'note.create', entityKey: 'notes:n1' }, data: { id: 'n1', companyId: COMPANY } });
    await storeSentEntity({ db, row: { ...proposalRow, kind: 'odd', entityKey: 'no-colon' }, data: goal });
    expect(await db.goals.count()).toBe(1);
  });

  it("stores what the server answered for an undeclared kind through the replayer's own lookup", async () => {
    const db = openDb();
    await writeWithOutbox(db, [], () =>
      enqueue(db, { ownerUserId: OWNER, kind: 'goal.approve', method: 'POST', path: `/api/v1/companies/${COMPANY}/goals/g1/approve`, body: {}, entityKey: entityKeyOf('goals', 'g1') }),
    );
    const goal = { id: 'g1', companyId: COMPANY, status: 'APPROVED' };
    const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(new Response(JSON.stringify({ data: goal, message: 'OK' }), { status: 200 })));
    const replayer = createReplayer({
      db,
      http: createHttpClient({
        prefix: '/main-service',
        fetch,
        tokens: { getAccess: () => 'token', getRefresh: () => null, set: () => undefined, clear: () => undefined },
        getLocale: () => 'en',
        onAuthFailure: () => undefined,
      }),
      getOwnerUserId: () => OWNER,
      clock: { now: () => Date.parse(AT) },
      random: () => 0,
      locks: null,
      handlers: outboxSuccessHandlers,
    });
    expect((await replayer.drain()).sent).toBe(1);
    expect(await db.goals.get([OWNER, 'g1'])).toEqual({ ...goal, ownerUserId: OWNER });
  });

  it('stores the proposal the server answered through the proposals kind', async () => {
    const db = openDb();
    const suggestion = { id: 's1', companyId: COMPANY, title: 'x' } as unknown as Suggestion;
    await outboxKindOf('suggestion.create').onSuccess({ db, row: proposalRow, data: suggestion });
    // Not a whole proposal: left to the pull, as the feature's handler decides.
    expect(await db.suggestions.count()).toBe(0);
  });
});

describe('the Unsent screen with the registry', () => {
  it('shows a queued proposal by its title with its edit link, and an undeclared kind as "A change"', () => {
    const { hook } = memoryLocation({ path: '/unsent' });
    render(
      <IntlProvider locale="en" messages={en}>
        <DialogProvider>
          <Router hook={hook}>
            <OutboxKindsProvider describe={describeOutboxRow}>
              <UnsentList
                rows={[proposalRow, { ...proposalRow, seq: 2, id: 'k2', kind: 'goal.approve', entityKey: 'goals:g1' }]}
                unreadable={[]}
                actions={{ retry: () => Promise.resolve(), discard: () => Promise.resolve(), discardUnreadable: () => Promise.resolve() }}
              />
            </OutboxKindsProvider>
          </Router>
        </DialogProvider>
      </IntlProvider>,
    );
    expect(screen.getByText('Proposal “Shorter changeover”')).toBeTruthy();
    expect(screen.getByText('A change')).toBeTruthy();
    const links = screen.getAllByRole('link', { name: 'Edit and resend' });
    expect(links.map((link) => link.getAttribute('href'))).toEqual([`/companies/${COMPANY}/suggestions/create?resend=k1`]);
  });
});
