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
import { discardUnsent } from '../features/outbox/store';
import { reviewSuggestion } from '../features/suggestions/review-store';
import { getAppDatabase } from '../lib/db/database';
import { refreshStaleRows } from '../lib/sync/pull';
import { describeOutboxRow, loadOutboxSuccessHandler, outboxKindOf, outboxKinds, storeSentEntity } from './outbox-kinds';
import { registryRow } from '../../tests/fixtures/rows';

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

  it('gives a kind nobody declared the generic label, no edit link and the generic success handler', async () => {
    expect(describeOutboxRow({ ...proposalRow, kind: 'registry.legacy' })).toEqual({ label: { id: 'outbox.kind.unknown', defaultMessage: 'A change' }, values: {}, editHref: null });
    expect(await outboxKindOf('registry.legacy').loadSuccessHandler()).toBe(storeSentEntity);
  });

  it("loads for the replayer each kind's handler from its feature's store, and storeSentEntity for any other kind", async () => {
    expect(await loadOutboxSuccessHandler('suggestion.create')).toBe(storeCreatedSuggestion);
    expect(await loadOutboxSuccessHandler('registry.legacy')).toBe(storeSentEntity);
    // A row whose kind is a prototype name gets the generic handler, not Object's own function.
    for (const name of ['then', 'toString', 'constructor', 'hasOwnProperty']) {
      expect(await loadOutboxSuccessHandler(name), name).toBe(storeSentEntity);
    }
    // Every declared kind loads a handler of its own.
    for (const declared of outboxKinds) expect(typeof (await loadOutboxSuccessHandler(declared.kind)), declared.kind).toBe('function');
  });

  it('stores the answer of an undeclared kind when its entity key names a mirrored table and the answer passes its struct', async () => {
    const db = openDb();
    const registry = registryRow('r1', { companyId: COMPANY });
    await storeSentEntity({ db, row: { ...proposalRow, kind: 'registry.legacy', entityKey: 'registries:r1' }, data: registry });
    expect(await db.registries.get([OWNER, 'r1'])).toEqual({ ...registry, ownerUserId: OWNER });

    await storeSentEntity({ db, row: { ...proposalRow, kind: 'registry.legacy', entityKey: 'registries:r2' }, data: { id: 'r2' } });
    await storeSentEntity({ db, row: { ...proposalRow, kind: 'note.create', entityKey: 'notes:n1' }, data: { id: 'n1', companyId: COMPANY } });
    await storeSentEntity({ db, row: { ...proposalRow, kind: 'odd', entityKey: 'no-colon' }, data: registry });
    expect(await db.registries.count()).toBe(1);
  });

  it("stores what the server answered for an undeclared kind through the replayer's own lookup", async () => {
    const db = openDb();
    await writeWithOutbox(db, [], () =>
      enqueue(db, { ownerUserId: OWNER, kind: 'registry.legacy', method: 'POST', path: `/api/v1/companies/${COMPANY}/registry/r1/approve`, body: {}, entityKey: entityKeyOf('registries', 'r1') }),
    );
    const registry = registryRow('r1', { companyId: COMPANY, status: 'APPROVED', decidedAt: AT, decidedByName: 'Owner O.' });
    const fetch = vi.fn<typeof globalThis.fetch>(() => Promise.resolve(new Response(JSON.stringify({ data: registry, message: 'OK' }), { status: 200 })));
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
      handlers: loadOutboxSuccessHandler,
    });
    expect((await replayer.drain()).sent).toBe(1);
    expect(await db.registries.get([OWNER, 'r1'])).toEqual({ ...registry, ownerUserId: OWNER });
  });

  it('stores the proposal the server answered through the proposals kind', async () => {
    const db = openDb();
    const suggestion = { id: 's1', companyId: COMPANY, title: 'x' } as unknown as Suggestion;
    const handler = await outboxKindOf('suggestion.create').loadSuccessHandler();
    await handler({ db, row: proposalRow, data: suggestion });
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
                rows={[proposalRow, { ...proposalRow, seq: 2, id: 'k2', kind: 'registry.legacy', entityKey: 'registries:r1' }]}
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

describe('a decision someone else made first', () => {
  const SUGGESTION = '00000000-0000-4000-8000-0000000000e1';
  const proposal = {
    id: SUGGESTION,
    companyId: COMPANY,
    title: 'Shorter changeover',
    problem: 'p',
    solution: 's',
    expectedEffect: 'e',
    effectEstimate: null,
    departmentId: 'd1',
    goalId: null,
    images: [],
    authorId: 'author',
    authorName: 'Сидоров Сидор',
    status: 'UNDER_CONSIDERATION',
    dueAt: AT,
    submittedAt: AT,
    receivedAt: AT,
    reviewComment: null,
    history: [],
    createdAt: AT,
    updatedAt: AT,
  } satisfies Suggestion;
  const message = 'This proposal was already approved by Иванов Иван on 22 Nov 2026.';
  const conflictRow: OutboxRow = {
    ...proposalRow,
    kind: 'suggestion.review',
    path: `/api/v1/companies/${COMPANY}/suggestions/${SUGGESTION}/review`,
    body: { decision: 'REJECTED', comment: 'Too costly' },
    entityKey: `suggestions:${SUGGESTION}`,
    status: 'conflict',
    lastError: { status: 409, message },
  };

  function renderConflict(locale: 'en' | 'ru') {
    const { hook } = memoryLocation({ path: '/unsent' });
    render(
      <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en}>
        <DialogProvider>
          <Router hook={hook}>
            <OutboxKindsProvider describe={describeOutboxRow}>
              <UnsentList rows={[conflictRow]} unreadable={[]} actions={{ retry: () => Promise.resolve(), discard: () => Promise.resolve(), discardUnreadable: () => Promise.resolve() }} />
            </OutboxKindsProvider>
          </Router>
        </DialogProvider>
      </IntlProvider>,
    );
  }

  it('shows on /unsent both the user\'s decision (titled from the device\'s copy) and what the server says happened, with the proposal to open', async () => {
    await getAppDatabase().suggestions.put({ ...proposal, ownerUserId: OWNER });
    renderConflict('en');
    expect(await screen.findByText('Your decision on the proposal “Shorter changeover”: reject — Too costly')).toBeTruthy();
    expect(screen.getByText(`Meanwhile on the server: ${message}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open the proposal' }).getAttribute('href')).toBe(`/companies/${COMPANY}/suggestions/${SUGGESTION}`);
    // A refused decision is not edited: it is discarded, or tried again.
    expect(screen.queryByRole('link', { name: 'Edit and resend' })).toBeNull();
    cleanup();

    renderConflict('ru');
    expect(await screen.findByText('Ваше решение по предложению «Shorter changeover»: отклонить — Too costly')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Открыть предложение' })).toBeTruthy();
    await getAppDatabase().suggestions.clear();
  });

  it('names the decision without a title when the proposal is not on the device', () => {
    const view = describeOutboxRow({ ...conflictRow, body: { decision: 'APPROVED', comment: null } });
    expect(view.values).toMatchObject({ hasTitle: 'no', decision: 'APPROVED', hasComment: 'no' });
    expect(view.viewHref).toBe(`/companies/${COMPANY}/suggestions/${SUGGESTION}`);
  });

  it("brings the server's version back once the user discards the refused decision", async () => {
    const db = openDb();
    await db.suggestions.put({ ...proposal, ownerUserId: OWNER });
    await reviewSuggestion({ db, actor: { id: OWNER, fullName: 'Петров Пётр' } }, COMPANY, SUGGESTION, { decision: 'REJECTED', comment: 'Too costly' });
    const [row] = await db.outbox.toArray();
    await db.outbox.update(row!.seq, { status: 'conflict', lastError: { status: 409, message } });
    expect((await db.suggestions.get([OWNER, SUGGESTION]))?.status).toBe('REJECTED');

    expect(await discardUnsent(db, OWNER, row!.id)).toBe(true);
    const approved = { ...proposal, status: 'APPROVED', decidedByName: 'Иванов Иван', decidedAt: AT };
    const fetch = vi.fn<typeof globalThis.fetch>(() =>
      Promise.resolve(new Response(JSON.stringify({ data: { changes: [{ seq: '5', table: 'suggestions', op: 'upsert', id: SUGGESTION, row: approved }] } }), { status: 200 })),
    );
    const http = createHttpClient({
      prefix: '/main-service',
      fetch,
      tokens: { getAccess: () => 'token', getRefresh: () => null, set: () => undefined, clear: () => undefined },
      getLocale: () => 'en',
      onAuthFailure: () => undefined,
    });
    expect(await refreshStaleRows({ db, http, ownerUserId: OWNER, companyId: COMPANY })).toBe(1);
    expect(await db.suggestions.get([OWNER, SUGGESTION])).toMatchObject({ status: 'APPROVED', decidedByName: 'Иванов Иван' });
  });
});
