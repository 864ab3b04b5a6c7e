import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Switch } from 'wouter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Goal } from '../../domain/goal';
import type { CurrentUser } from '../../domain/user';
import { getAppDatabase } from '../../lib/db/database';
import GoalActionResultPage from './pages/goal-action-result-page';
import GoalCreatePage from './pages/goal-create-page';
import GoalCreateResultPage from './pages/goal-create-result-page';
import GoalPage from './pages/goal-page';
import GoalsPage from './pages/goals-page';
import { GOAL_ACTION_KIND, GOAL_EDIT_KIND } from './store';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { employeeRow, goalRow, projectRow, suggestionRow } from '../../../tests/fixtures/rows';

const OWNER = '00000000-0000-4000-8000-0000000000a1';
const CUSTOMER = '00000000-0000-4000-8000-0000000000a2';
const WORKER = '00000000-0000-4000-8000-0000000000a3';
const COMPANY = 'c1';
const CUSTOMER_EMPLOYEE = '00000000-0000-4000-8000-0000000000e2';
const OTHER_EMPLOYEE = '00000000-0000-4000-8000-0000000000e3';
const GOAL = '00000000-0000-4000-8000-0000000000f1';
const AT = '2026-03-01T10:00:00.000Z';
const goalPath = `/companies/${COMPANY}/goals/${GOAL}`;

function userOf(id: string, fullName: string, roles: string[]): CurrentUser {
  return testUser(id, fullName, roles, { companyId: COMPANY });
}

const owner = userOf(OWNER, 'Собственников Олег', ['OWNER']);
const customer = userOf(CUSTOMER, 'Заказчиков Иван', ['MIDDLE_MANAGER']);
const worker = userOf(WORKER, 'Рабочий Пётр', ['EMPLOYEE']);

function goal(fields: Partial<Goal> = {}): Goal {
  return goalRow(GOAL, {
    businessCustomerEmployeeId: CUSTOMER_EMPLOYEE,
    businessCustomerUserId: CUSTOMER,
    history: [{ at: AT, action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: OWNER, byName: 'Собственников Олег', comment: null }],
    ...fields,
  });
}

async function seed(ownerUserId: string, goals: Goal[] = [goal()]) {
  const db = getAppDatabase();
  await db.employees.bulkPut(
    [
      employeeRow(CUSTOMER_EMPLOYEE, { userId: CUSTOMER, lastName: 'Заказчиков', firstName: 'Иван', roles: ['MIDDLE_MANAGER'] }),
      employeeRow(OTHER_EMPLOYEE, { lastName: 'Петрова', firstName: 'Анна' }),
    ].map((row) => ({ ...row, ownerUserId })),
  );
  await db.units.bulkPut(
    [
      { id: 'MINUTES', title: 'Minutes', type: 'BASE_INDICATOR' },
      { id: 'HOURS', title: 'Hours', type: 'BASE_INDICATOR' },
    ].map((row) => ({ ...row, ownerUserId })),
  );
  await db.goals.bulkPut(goals.map((row) => ({ ...row, ownerUserId })));
}

beforeEach(clearAppDatabase);
afterEach(cleanup);

function renderAt(path: string, user: CurrentUser, locale: 'en' | 'ru' = 'en') {
  return renderPage(
    path,
    <Switch>
      <Route path="/companies/:companyId/goals" component={GoalsPage} />
      <Route path="/companies/:companyId/goals/create" component={GoalCreatePage} />
      <Route path="/companies/:companyId/goals/create-result" component={GoalCreateResultPage} />
      <Route path="/companies/:companyId/goals/:goalId" component={GoalPage} />
      <Route path="/companies/:companyId/goals/:goalId/action-result" component={GoalActionResultPage} />
    </Switch>,
    { user, locale },
  );
}

describe('the goals list', () => {
  const list = [
    goal(),
    goalRow('00000000-0000-4000-8000-0000000000f2', { direction: 'Логистика', scope: 'Склад', status: 'APPROVED', businessCustomerEmployeeId: OTHER_EMPLOYEE, endDate: '2026-06-30' }),
  ];

  it('shows each goal with its business customer and status, and "New goal" to the owner', async () => {
    await seed(OWNER, list);
    renderAt(`/companies/${COMPANY}/goals`, owner);
    expect(await screen.findByText('Производство — Переналадка линии')).toBeTruthy();
    expect(screen.getByText('Логистика — Склад')).toBeTruthy();
    expect(screen.getByText('Business customer: Заказчиков Иван')).toBeTruthy();
    expect(screen.getByText('2 goals')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'New goal' }).getAttribute('href')).toBe(`/companies/${COMPANY}/goals/create`);
  });

  it('keeps its filters in the URL and offers no "New goal" to an employee', async () => {
    await seed(WORKER, list);
    renderAt(`/companies/${COMPANY}/goals?status=APPROVED`, worker);
    expect(await screen.findByText('Логистика — Склад')).toBeTruthy();
    expect(screen.queryByText('Производство — Переналадка линии')).toBeNull();
    expect(screen.getByText('1 goal')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New goal' })).toBeNull();
  });

  it('finds goals by a word as the search of the URL says', async () => {
    await seed(WORKER, list);
    renderAt(`/companies/${COMPANY}/goals?q=${encodeURIComponent('ЛИНИИ')}`, worker);
    expect(await screen.findByText('Производство — Переналадка линии')).toBeTruthy();
    expect(screen.queryByText('Логистика — Склад')).toBeNull();
  });

  it('marks a goal whose change waits to be sent', async () => {
    await seed(CUSTOMER, list);
    const user = userEvent.setup();
    renderAt(goalPath, customer);
    await user.click(await screen.findByRole('button', { name: 'Take to work' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Take to work' }));
    await screen.findByText('Saved on this device: it will be sent as soon as there is a connection.');
    cleanup();
    renderAt(`/companies/${COMPANY}/goals`, customer);
    const row = await screen.findByText('Производство — Переналадка линии');
    expect(within(row.closest('li') ?? document.body).getByText('Waiting to send')).toBeTruthy();
  });
});

describe('the goal form', () => {
  it('refuses to send an empty form and names the required fields', async () => {
    await seed(OWNER);
    const user = userEvent.setup();
    renderAt(`/companies/${COMPANY}/goals/create`, owner);
    await user.click(await screen.findByRole('button', { name: 'Set the goal' }));
    // Every field of the form, the dates, the unit, the indicator and the business customer included: an empty
    // field is one to fill in, not one that is "not valid".
    expect(await screen.findAllByText('Fill in this field.')).toHaveLength(11);
    expect(screen.queryByText(/is not valid/)).toBeNull();
    expect(await getAppDatabase().outbox.count()).toBe(0);
  });

  it('is offered only to those who set goals', async () => {
    await seed(WORKER);
    renderAt(`/companies/${COMPANY}/goals/create`, worker);
    expect(await screen.findByText('Only the owner, the CEO or a top manager sets goals.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Set the goal' })).toBeNull();
  });

  it('says on the end date that it must come after the start date, in both languages', async () => {
    await seed(OWNER, [goal({ startDate: '2026-05-01', endDate: '2026-04-01' })]);
    const user = userEvent.setup();
    renderAt(`/companies/${COMPANY}/goals/create?edit=${GOAL}`, owner);
    await user.click(await screen.findByRole('button', { name: 'Save the goal' }));
    expect(await screen.findByText('The end date must be after the start date.')).toBeTruthy();
    expect(await getAppDatabase().outbox.count()).toBe(0);
    cleanup();
    renderAt(`/companies/${COMPANY}/goals/create?edit=${GOAL}`, owner, 'ru');
    await user.click(await screen.findByRole('button', { name: 'Сохранить цель' }));
    expect(await screen.findByText('Дата окончания должна быть позже даты начала.')).toBeTruthy();
  });

  it("saves the owner's edit on the device and goes back to the goal", async () => {
    await seed(OWNER, [goal({ status: 'CLARIFICATION' })]);
    const user = userEvent.setup();
    const location = renderAt(`/companies/${COMPANY}/goals/create?edit=${GOAL}`, owner);
    const scope = await screen.findByRole('textbox', { name: /Scope of improvement/ });
    await user.clear(scope);
    await user.type(scope, 'Переналадка пресса');
    await user.click(screen.getByRole('button', { name: 'Save the goal' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe(goalPath));
    expect(await getAppDatabase().outbox.toArray()).toEqual([expect.objectContaining({ kind: GOAL_EDIT_KIND, method: 'PATCH', body: expect.objectContaining({ scope: 'Переналадка пресса' }) })]);
    expect((await getAppDatabase().goals.get([OWNER, GOAL]))?.scope).toBe('Переналадка пресса');
  });

  it('is closed to edits once the goal was taken to work', async () => {
    await seed(OWNER, [goal({ status: 'TO_WORK' })]);
    renderAt(`/companies/${COMPANY}/goals/create?edit=${GOAL}`, owner);
    expect(await screen.findByText(/This goal cannot be edited now/)).toBeTruthy();
  });
});

describe('the goal page', () => {
  it('offers the business customer "to work" and "for clarification", nothing else', async () => {
    await seed(CUSTOMER);
    renderAt(goalPath, customer);
    expect(await screen.findByRole('button', { name: 'Take to work' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask for clarification' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it('offers the owner only the edit of a NEW goal, and the approval once it was taken to work', async () => {
    await seed(OWNER);
    renderAt(goalPath, owner);
    expect(await screen.findByRole('link', { name: 'Edit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Take to work' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    await getAppDatabase().goals.update([OWNER, GOAL], { status: 'TO_WORK' });
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it('offers an employee nothing to do', async () => {
    await seed(WORKER);
    renderAt(goalPath, worker);
    expect(await screen.findByText('Заказчиков Иван')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'What you can do' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Take to work' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
  });

  it('shows every field, the audit trail, its proposals and projects and the progress of its indicator', async () => {
    await seed(WORKER);
    const db = getAppDatabase();
    await db.suggestions.put({ ...suggestionRow('s1', { companyId: COMPANY, departmentId: 'd1', authorId: WORKER, at: AT }, { goalId: GOAL, title: 'Тележка для штампов' }), ownerUserId: WORKER });
    await db.projects.bulkPut(
      [
        projectRow('p1', {
          name: 'Быстрая переналадка',
          goalIds: [GOAL],
          baselineMetric: { value: 40, unitId: 'MINUTES' },
          indicatorReports: [{ id: 'r1', date: '2026-05-01', value: 28, at: AT, byUserId: OWNER, byName: 'Собственников Олег', comment: null }],
        }),
        projectRow('p2', { name: 'Чужой проект', goalIds: ['other'] }),
      ].map((row) => ({ ...row, ownerUserId: WORKER })),
    );
    renderAt(goalPath, worker);
    expect(await screen.findByText('Переналадка занимает 40 минут')).toBeTruthy();
    expect(screen.getByText('20 minutes')).toBeTruthy();
    expect(screen.getByText('Set the goal')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Тележка для штампов' }).getAttribute('href')).toBe(`/companies/${COMPANY}/suggestions/s1`);
    expect(await screen.findByRole('link', { name: 'Быстрая переналадка' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Чужой проект' })).toBeNull();
    expect(screen.getByText('12 of 20 minutes, 60%')).toBeTruthy();
  });

  it('needs a comment to ask for clarification, then says it was sent for clarification', async () => {
    await seed(CUSTOMER);
    const user = userEvent.setup();
    const location = renderAt(goalPath, customer);
    await user.click(await screen.findByRole('button', { name: 'Ask for clarification' }));
    await user.click(screen.getByRole('button', { name: 'Send for clarification' }));
    expect(await screen.findByText('Write what needs clarifying: the owner will read it.')).toBeTruthy();
    expect(await getAppDatabase().outbox.count()).toBe(0);
    await user.type(screen.getByRole('textbox', { name: /What needs clarifying/ }), 'Какая линия?');
    await user.click(screen.getByRole('button', { name: 'Send for clarification' }));
    await waitFor(() => expect(location.history?.at(-1)).toBe(`${goalPath}/action-result?action=CLARIFICATION`));
    expect(await screen.findByRole('heading', { name: 'Sent for clarification' })).toBeTruthy();
    expect(screen.getByText('Waiting to send')).toBeTruthy();
    expect(await getAppDatabase().outbox.toArray()).toEqual([expect.objectContaining({ kind: GOAL_ACTION_KIND, body: { action: 'CLARIFICATION', comment: 'Какая линия?' } })]);
  });
});

describe('the action result', () => {
  it.each([
    ['TO_WORK', 'en' as const, 'Taken to work'],
    ['APPROVE', 'en' as const, 'Approved'],
    ['RESEND', 'en' as const, 'Sent back to the business customer'],
    ['TO_WORK', 'ru' as const, 'Цель взята в работу'],
    ['CLARIFICATION', 'ru' as const, 'Цель отправлена на уточнение'],
  ])('names what %s did (%s)', async (action, locale, text) => {
    await seed(OWNER);
    renderAt(`${goalPath}/action-result?action=${action}`, owner, locale);
    expect(await screen.findByRole('heading', { name: text })).toBeTruthy();
    expect(screen.getByText(locale === 'en' ? 'Done: the others involved were told.' : 'Готово: участники получили уведомление.')).toBeTruthy();
  });
});
