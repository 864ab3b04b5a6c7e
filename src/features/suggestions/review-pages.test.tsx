import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DepartmentRow, EmployeeRow, Suggestion } from '../../domain/suggestion';
import type { CurrentUser } from '../../domain/user';
import { getAppDatabase } from '../../lib/db/database';
import SuggestionCreatePage from './pages/suggestion-create-page';
import SuggestionDistributePage from './pages/suggestion-distribute-page';
import SuggestionPage from './pages/suggestion-page';
import SuggestionSuccessPage from './pages/suggestion-success-page';
import { SUGGESTION_DISTRIBUTE_KIND, SUGGESTION_REVIEW_KIND, SUGGESTION_REVISE_KIND } from './review-store';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { goalRow, projectRow, suggestionRow } from '../../../tests/fixtures/rows';

const HEAD = '00000000-0000-4000-8000-0000000000a1';
const AUTHOR = '00000000-0000-4000-8000-0000000000a2';
const LOGISTICS_HEAD = '00000000-0000-4000-8000-0000000000a3';
const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const PRODUCTION = '00000000-0000-4000-8000-0000000000d1';
const LOGISTICS = '00000000-0000-4000-8000-0000000000d2';
const ID = '00000000-0000-4000-8000-0000000000e1';
const AT = '2026-11-20T08:00:00.000Z';

function userOf(id: string, fullName: string, roles: string[]): CurrentUser {
  return testUser(id, fullName, roles, { companyId: COMPANY });
}

const head = userOf(HEAD, 'Петров Пётр', ['MIDDLE_MANAGER']);
const author = userOf(AUTHOR, 'Сидоров Сидор', ['EMPLOYEE']);

function department(id: string, name: string, headUserId: string | null): DepartmentRow {
  return { id, companyId: COMPANY, name, headUserId, createdAt: AT, updatedAt: AT };
}

function employee(id: string, userId: string | null, lastName: string, firstName: string, departmentId: string, roles = ['EMPLOYEE']): EmployeeRow {
  return {
    id,
    companyId: COMPANY,
    userId,
    lastName,
    firstName,
    middleName: null,
    position: null,
    email: null,
    serviceNumber: null,
    departmentId,
    roles,
    active: true,
    imported: false,
    invitedAt: null,
    createdAt: AT,
    updatedAt: AT,
  };
}

function inTwoDays(): Date {
  const today = new Date();
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() + 2, 12);
}

function proposal(fields: Partial<Suggestion> = {}): Suggestion {
  // Noon two calendar days ahead: "due in 2 days" whatever the hour the test runs.
  return suggestionRow(ID, { companyId: COMPANY, departmentId: PRODUCTION, authorId: AUTHOR, at: AT }, { dueAt: inTwoDays().toISOString(), ...fields });
}

/** The mirror of `owner`: two departments with their heads and people, and the proposal. */
async function seed(owner: string, fields: Partial<Suggestion> = {}) {
  const db = getAppDatabase();
  await db.departments.bulkPut([department(PRODUCTION, 'Production', HEAD), department(LOGISTICS, 'Logistics', LOGISTICS_HEAD)].map((row) => ({ ...row, ownerUserId: owner })));
  await db.employees.bulkPut(
    [
      employee('e1', HEAD, 'Petrov', 'Pyotr', PRODUCTION, ['MIDDLE_MANAGER']),
      employee('e2', AUTHOR, 'Sidorov', 'Sidor', PRODUCTION),
      employee('e3', LOGISTICS_HEAD, 'Ivanov', 'Ivan', LOGISTICS, ['FIRST_LINE_MANAGER']),
      employee('e4', null, 'Kuznetsova', 'Anna', LOGISTICS),
      employee('e5', null, 'Smirnov', 'Oleg', LOGISTICS),
    ].map((row) => ({ ...row, ownerUserId: owner })),
  );
  await db.suggestions.put({ ...proposal(fields), ownerUserId: owner });
}

beforeEach(clearAppDatabase);
afterEach(cleanup);

function renderAt(path: string, user: CurrentUser, locale: 'en' | 'ru' = 'en') {
  return renderPage(
    path,
    <>
      <Route path="/companies/:companyId/suggestions/create" component={SuggestionCreatePage} />
      <Route path="/companies/:companyId/suggestions/:suggestionId" component={SuggestionPage} />
      <Route path="/companies/:companyId/suggestions/:suggestionId/distribute" component={SuggestionDistributePage} />
      <Route path="/companies/:companyId/suggestions/:suggestionId/success" component={SuggestionSuccessPage} />
    </>,
    { user, locale },
  );
}

const proposalPath = `/companies/${COMPANY}/suggestions/${ID}`;

describe('the proposal page', () => {
  it('gives the head of its department the decisions, the due date in words and who holds it', async () => {
    await seed(HEAD);
    renderAt(proposalPath, head);
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask for clarification' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Pass to another department' }).getAttribute('href')).toBe(`${proposalPath}/distribute`);
    expect(screen.getByText('due in 2 days')).toBeTruthy();
    expect(screen.getByText('Waiting on: Petrov P., head of Production')).toBeTruthy();
    expect(screen.getByText('Submitted by Сидоров Сидор')).toBeTruthy();
    // Without a list behind it, the way back is the review list.
    expect(screen.getByRole('link', { name: 'Back to the list' }).getAttribute('href')).toBe(`/companies/${COMPANY}/suggestions`);
  });

  it('gives its author, an employee, no decisions', async () => {
    await seed(AUTHOR);
    renderAt(proposalPath, author);
    expect(await screen.findByText('Waiting on: Petrov P., head of Production')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Pass to another department' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to the list' }).getAttribute('href')).toBe(`/companies/${COMPANY}/my-suggestions`);
  });

  it('needs a reason to reject, then rejects on the device and marks it waiting to send', async () => {
    await seed(HEAD);
    const user = userEvent.setup();
    renderAt(proposalPath, head);
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    await user.click(screen.getByRole('button', { name: 'Reject the proposal' }));
    expect(await screen.findByText('Give the reason for rejecting it: the author will read it.')).toBeTruthy();
    expect(await getAppDatabase().outbox.count()).toBe(0);

    await user.type(screen.getByRole('textbox', { name: /Reason for the rejection/ }), 'Costs more than it saves');
    await user.click(screen.getByRole('button', { name: 'Reject the proposal' }));
    expect(await screen.findByText('Waiting to send')).toBeTruthy();
    expect(screen.getByText('Rejected')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(await getAppDatabase().outbox.toArray()).toEqual([
      expect.objectContaining({ kind: SUGGESTION_REVIEW_KIND, body: { decision: 'REJECTED', comment: 'Costs more than it saves' } }),
    ]);
  });

  it('shows the author the decision, the reason and who decided, in both languages', async () => {
    const decided = { status: 'REJECTED' as const, reviewComment: 'Costs more than it saves', decidedById: HEAD, decidedByName: 'Петров П.', decidedAt: '2026-11-24T09:00:00.000Z' };
    await seed(AUTHOR, {
      ...decided,
      history: [...proposal().history, { at: decided.decidedAt, kind: 'REJECTED', byUserId: HEAD, byName: 'Петров П.', comment: decided.reviewComment }],
    });
    renderAt(proposalPath, author);
    expect(await screen.findByText('Rejected by Петров П. on Nov 24, 2026')).toBeTruthy();
    expect(screen.getAllByText('Costs more than it saves').length).toBeGreaterThan(0);
    expect(screen.queryByText(/Waiting on/)).toBeNull();
    cleanup();

    renderAt(proposalPath, author, 'ru');
    expect(await screen.findByText('Отклонено: Петров П., 24 нояб. 2026 г.')).toBeTruthy();
    expect(screen.getByText('Причина')).toBeTruthy();
  });

  it('asks the author to clarify with the question and an "Edit and resend" link', async () => {
    await seed(AUTHOR, { status: 'CLARIFICATION', reviewComment: 'Which press line?', decidedByName: 'Петров П.', decidedAt: AT, clarificationAt: AT });
    renderAt(proposalPath, author);
    expect(await screen.findByText('Which press line?')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Edit and resend' }).getAttribute('href')).toBe(`/companies/${COMPANY}/suggestions/create?clarify=${ID}`);
  });

  it('offers "Make a project" on an approved proposal to whoever may decide it', async () => {
    await seed(HEAD, { status: 'APPROVED', decidedById: HEAD, decidedByName: 'Петров П.', decidedAt: AT });
    renderAt(proposalPath, head);
    expect((await screen.findByRole('link', { name: 'Make a project' })).getAttribute('href')).toBe(`/companies/${COMPANY}/projects/create?fromSuggestion=${ID}`);
  });

  it('names the goal it serves and, once made into a project, links the project instead of offering another', async () => {
    const GOAL = '00000000-0000-4000-8000-0000000000f1';
    const PROJECT = '00000000-0000-4000-8000-0000000000f2';
    await seed(HEAD, { status: 'APPROVED', decidedById: HEAD, decidedByName: 'Петров П.', decidedAt: AT, goalId: GOAL });
    const db = getAppDatabase();
    await db.goals.put({ ...goalRow(GOAL, { companyId: COMPANY, direction: 'Lean', scope: 'Changeovers' }), ownerUserId: HEAD });
    await db.projects.put({ ...projectRow(PROJECT, { companyId: COMPANY, name: 'Quick changeover', suggestionId: ID }), ownerUserId: HEAD });
    renderAt(proposalPath, head);
    expect((await screen.findByRole('link', { name: 'Lean: Changeovers' })).getAttribute('href')).toBe(`/companies/${COMPANY}/goals/${GOAL}`);
    expect((await screen.findByRole('link', { name: '«Quick changeover»' })).getAttribute('href')).toBe(`/companies/${COMPANY}/projects/${PROJECT}`);
    expect(screen.queryByRole('link', { name: 'Make a project' })).toBeNull();
  });
});

describe('the distribution screen', () => {
  it('lists the departments with their heads and people, and passes the proposal on to the chosen one', async () => {
    await seed(HEAD);
    const user = userEvent.setup();
    const location = renderAt(`${proposalPath}/distribute`, head);
    const logistics = (await screen.findByText('Logistics')).closest('li')!;
    expect(within(logistics).getByText('Head: Ivanov I.')).toBeTruthy();
    expect(within(logistics).getByText('3 employees')).toBeTruthy();
    const production = screen.getByText('Production').closest('li')!;
    expect(within(production).getByText('Head: Petrov P.')).toBeTruthy();
    expect(within(production).getByRole('radio')).toHaveProperty('disabled', true);

    await user.click(within(logistics).getByRole('button', { name: 'Show the people' }));
    expect(within(logistics).getByText('Kuznetsova A.')).toBeTruthy();

    // Nothing chosen yet: said, nothing stored.
    await user.click(screen.getByRole('button', { name: 'Pass it on' }));
    expect(await screen.findByText('Choose the department that should decide it.')).toBeTruthy();
    expect(await getAppDatabase().outbox.count()).toBe(0);

    await user.click(within(logistics).getByRole('radio'));
    await user.click(screen.getByRole('button', { name: 'Pass it on' }));
    expect(await screen.findByText(/Passed to Logistics\. Ivanov I\. decides it by/)).toBeTruthy();
    expect(location.history?.at(-1)).toBe(`${proposalPath}/success`);
    expect(await getAppDatabase().outbox.toArray()).toEqual([expect.objectContaining({ kind: SUGGESTION_DISTRIBUTE_KIND, body: { departmentId: LOGISTICS } })]);
  });

  it('finds a department by one of its people', async () => {
    await seed(HEAD);
    const user = userEvent.setup();
    renderAt(`${proposalPath}/distribute`, head);
    await user.type(await screen.findByRole('searchbox', { name: 'Find a department or a person' }), 'smirn');
    expect(await screen.findByText('Smirnov O.')).toBeTruthy();
    expect(screen.queryByText('Production')).toBeNull();
  });
});

describe('the page after passing a proposal on', () => {
  it('ends the sentence with the point of an abbreviated Russian month, not a second one', async () => {
    await seed(HEAD, { dueAt: new Date(2026, 10, 28, 12).toISOString() });
    renderAt(`${proposalPath}/success`, head, 'ru');
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('status').textContent).toBe('Передано в отдел «Production». Petrov P. примет решение до 28 нояб.');
  });
});

describe("the author's resend after a question", () => {
  it('shows the question, fills the form from the proposal and sends the clarified text, then opens the proposal', async () => {
    await seed(AUTHOR, { status: 'CLARIFICATION', reviewComment: 'Which press line?', decidedByName: 'Петров П.', decidedAt: AT, clarificationAt: AT });
    const user = userEvent.setup();
    const location = renderAt(`/companies/${COMPANY}/suggestions/create?clarify=${ID}`, author);
    expect(await screen.findByText('Which press line?')).toBeTruthy();
    const title = screen.getByRole('textbox', { name: /Title/ });
    expect(title).toHaveProperty('value', 'Shorter changeover');
    await user.clear(title);
    await user.type(title, 'Shorter changeover on line 2');
    await user.click(screen.getByRole('button', { name: 'Save and send again' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe(proposalPath));
    expect(await getAppDatabase().outbox.toArray()).toEqual([
      expect.objectContaining({ kind: SUGGESTION_REVISE_KIND, method: 'PATCH', body: expect.objectContaining({ title: 'Shorter changeover on line 2' }) }),
    ]);
    expect((await getAppDatabase().suggestions.get([AUTHOR, ID]))?.status).toBe('UNDER_CONSIDERATION');
  });

  it('says so when the proposal no longer waits for a clarification', async () => {
    await seed(AUTHOR);
    renderAt(`/companies/${COMPANY}/suggestions/create?clarify=${ID}`, author);
    expect(await screen.findByText('This proposal is not waiting for your clarification.')).toBeTruthy();
  });
});
