import 'fake-indexeddb/auto';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../domain/project';
import type { DepartmentRow } from '../../domain/suggestion';
import type { CurrentUser } from '../../domain/user';
import { getAppDatabase } from '../../lib/db/database';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { projectRow } from '../../../tests/fixtures/rows';
import { checkPaymentsDraft } from './components/project-detail-payments';
import ProjectApproveResultPage from './pages/project-approve-result-page';
import ProjectCompleteSuccessPage from './pages/project-complete-success-page';
import ProjectIndicatorSuccessPage from './pages/project-indicator-success-page';
import ProjectPage from './pages/project-page';
import { PROJECT_PAYMENTS_KIND, PROJECT_TRANSITION_KIND } from './transition-store';

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const PROD = '00000000-0000-4000-8000-0000000000d1';
const ID = '00000000-0000-4000-8000-0000000000f1';
const PM_USER = '00000000-0000-4000-8000-0000000000a1';
const PM_EMP = '00000000-0000-4000-8000-0000000000e1';
const MATE_EMP = '00000000-0000-4000-8000-0000000000e2';
const FIN_USER = '00000000-0000-4000-8000-0000000000a2';
const DM_USER = '00000000-0000-4000-8000-0000000000a3';
const EMP_USER = '00000000-0000-4000-8000-0000000000a4';
const AT = '2026-11-20T08:00:00.000Z';

function userOf(id: string, fullName: string, roles: string[]): CurrentUser {
  return testUser(id, fullName, roles, { companyId: COMPANY });
}

const manager = userOf(PM_USER, 'Петров Пётр', ['EMPLOYEE']);
const finspec = userOf(FIN_USER, 'Финансова Фаина', ['FINANCIAL_SPECIALIST']);
const director = userOf(DM_USER, 'Директоров Дмитрий', ['DIRECTION_MANAGER']);
const worker = userOf(EMP_USER, 'Рабочий Роман', ['EMPLOYEE']);

function project(fields: Partial<Project> = {}): Project {
  return projectRow(ID, {
    companyId: COMPANY,
    departmentId: PROD,
    projectManagerEmployeeId: PM_EMP,
    projectManagerUserId: PM_USER,
    team: [
      { employeeId: PM_EMP, name: 'Петров Пётр Петрович', serviceNumber: '0007', role: 'Руководитель' },
      { employeeId: MATE_EMP, name: 'Иванов Иван', serviceNumber: '0042', role: 'Технолог' },
    ],
    profitBasisPoints: 1250,
    maxPerProjectMinor: 5_000_000,
    history: [{ at: AT, action: 'CREATED', fromStatus: null, toStatus: 'NEW', byUserId: PM_USER, byName: 'Петров Пётр', comment: null }],
    ...fields,
  });
}

async function seed(owner: string, fields: Partial<Project> = {}) {
  const db = getAppDatabase();
  const department: DepartmentRow = { id: PROD, companyId: COMPANY, name: 'Production', headUserId: null, createdAt: AT, updatedAt: AT };
  await db.departments.put({ ...department, ownerUserId: owner });
  await db.projects.put({ ...project(fields), ownerUserId: owner });
}

beforeEach(clearAppDatabase);
afterEach(cleanup);

function renderAt(path: string, user: CurrentUser, locale: 'en' | 'ru' = 'en') {
  return renderPage(
    path,
    <>
      <Route path="/companies/:companyId/projects/:projectId" component={ProjectPage} />
      <Route path="/companies/:companyId/projects/:projectId/aprove-result" component={ProjectApproveResultPage} />
      <Route path="/companies/:companyId/projects/:projectId/complete-success" component={ProjectCompleteSuccessPage} />
      <Route path="/companies/:companyId/projects/:projectId/indicator-success" component={ProjectIndicatorSuccessPage} />
    </>,
    { user, locale, units: [{ id: 'MINUTES', title: 'min', type: 'BASE_INDICATOR' }] },
  );
}

const projectPath = `/companies/${COMPANY}/projects/${ID}`;
const DECISIONS = ['Send for calculation', 'Calculated', 'Approve', 'Return for revision'];

function offered(): string[] {
  return DECISIONS.filter((name) => screen.queryByRole('button', { name }) !== null);
}

describe('the decisions offered on the project page', () => {
  it('per role and state, from availableProjectTransitions', async () => {
    await seed(PM_USER);
    renderAt(projectPath, manager);
    expect(await screen.findByRole('heading', { name: 'Быстрая переналадка' })).toBeTruthy();
    expect(offered()).toEqual(['Send for calculation']);
    cleanup();

    await seed(EMP_USER);
    renderAt(projectPath, worker);
    expect(await screen.findByRole('heading', { name: 'Быстрая переналадка' })).toBeTruthy();
    expect(offered()).toEqual([]);
    cleanup();

    await seed(FIN_USER);
    renderAt(projectPath, finspec);
    expect(await screen.findByRole('heading', { name: 'Быстрая переналадка' })).toBeTruthy();
    expect(offered()).toEqual([]);
    cleanup();

    await seed(FIN_USER, { status: 'CALCULATING' });
    renderAt(projectPath, finspec);
    expect(await screen.findByRole('button', { name: 'Calculated' })).toBeTruthy();
    expect(offered()).toEqual(['Calculated']);
    cleanup();

    await seed(DM_USER, { status: 'CALCULATED', expectedEffect12mMinor: 800_000, remunerationMinor: 100_000 });
    renderAt(projectPath, director);
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(offered()).toEqual(['Approve', 'Return for revision']);
    cleanup();

    await seed(PM_USER, { status: 'APPROVED', nextReportDue: '2026-12-01' });
    renderAt(projectPath, manager);
    expect((await screen.findByRole('link', { name: 'Complete' })).getAttribute('href')).toBe(`${projectPath}/complete`);
    expect(screen.getByRole('button', { name: 'Report the indicator' })).toBeTruthy();
    expect(screen.getByText(/Report due/).textContent).toContain('12/01/2026');
  });

  it('lets finance calculate on the device: the amounts, the remuneration, waiting to send', async () => {
    await seed(FIN_USER, { status: 'CALCULATING' });
    const user = userEvent.setup();
    renderAt(projectPath, finspec);
    await user.click(await screen.findByRole('button', { name: 'Calculated' }));
    await user.type(screen.getByRole('textbox', { name: /Estimated costs/ }), '1000,5');
    await user.type(screen.getByRole('textbox', { name: /Expected economic effect/ }), '12,345');
    await user.click(screen.getByRole('button', { name: 'Save the calculation' }));
    expect(await screen.findByText('At most 2 digits after the decimal point.')).toBeTruthy();
    expect(await getAppDatabase().outbox.count()).toBe(0);

    await user.clear(screen.getByRole('textbox', { name: /Expected economic effect/ }));
    await user.type(screen.getByRole('textbox', { name: /Expected economic effect/ }), '80 000');
    await user.click(screen.getByRole('button', { name: 'Save the calculation' }));
    expect(await screen.findByText('Waiting to send')).toBeTruthy();
    const stored = await getAppDatabase().projects.get([FIN_USER, ID]);
    expect(stored).toMatchObject({ status: 'CALCULATED', estimatedCostsMinor: 100_050, expectedEffect12mMinor: 8_000_000, remunerationMinor: 1_000_000 });
    expect(await getAppDatabase().outbox.toArray()).toEqual([
      expect.objectContaining({ kind: PROJECT_TRANSITION_KIND, body: { to: 'CALCULATED', comment: null, estimatedCostsMinor: 100_050, expectedEffect12mMinor: 8_000_000 } }),
    ]);
  });

  it('approves after a confirmation and says so on the result page, offline included', async () => {
    await seed(DM_USER, { status: 'CALCULATED', expectedEffect12mMinor: 800_000, remunerationMinor: 100_000 });
    const user = userEvent.setup();
    const location = renderAt(projectPath, director);
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('The project “Быстрая переналадка” is approved and is now in the registry.')).toBeTruthy();
    expect(location.history?.at(-1)).toBe(`${projectPath}/aprove-result`);
    expect(screen.getByText('Saved on this device; it will be sent when the connection returns.')).toBeTruthy();
    expect(screen.getByText(/The first indicator report is due/)).toBeTruthy();
  });

  it('needs a reason to return it for revision', async () => {
    await seed(DM_USER, { status: 'CALCULATED', expectedEffect12mMinor: 800_000, remunerationMinor: 100_000 });
    const user = userEvent.setup();
    renderAt(projectPath, director);
    await user.click(await screen.findByRole('button', { name: 'Return for revision' }));
    const form = document.querySelector<HTMLFormElement>('form[data-form="revision"]');
    if (!form) throw new Error('no form');
    await user.click(within(form).getByRole('button', { name: 'Return for revision' }));
    expect(await screen.findByText('Give the reason: the project manager will read it.')).toBeTruthy();
    expect(await getAppDatabase().outbox.count()).toBe(0);
    await user.type(screen.getByRole('textbox', { name: /Reason for returning it/ }), 'Effect overstated');
    await user.click(within(form).getByRole('button', { name: 'Return for revision' }));
    expect(await screen.findByText(/is returned for revision/)).toBeTruthy();
    expect(screen.getByText('Effect overstated')).toBeTruthy();
  });
});

describe('the payments', () => {
  const payees = [
    { employeeId: PM_EMP, name: 'A', serviceNumber: null, role: null },
    { employeeId: MATE_EMP, name: 'B', serviceNumber: null, role: null },
  ];

  it('are checked against the remuneration before sending', () => {
    expect(checkPaymentsDraft(payees, { [PM_EMP]: '600', [MATE_EMP]: '400,01' }, 100_000)).toEqual({ ok: false, code: 'exceedsRemuneration', excessMinor: 1 });
    expect(checkPaymentsDraft(payees, { [PM_EMP]: '600', [MATE_EMP]: '' }, 100_000)).toEqual({ ok: true, payments: [{ employeeId: PM_EMP, amountMinor: 60_000 }], totalMinor: 60_000 });
    expect(checkPaymentsDraft(payees, { [PM_EMP]: '6,001' }, 100_000)).toMatchObject({ ok: false, code: 'amount', index: 0, amountCode: 'amountPrecision' });
  });

  it('show the excess, split evenly and save for the lead', async () => {
    await seed(PM_USER, { status: 'CALCULATED', expectedEffect12mMinor: 800_001, remunerationMinor: 100_000 });
    const user = userEvent.setup();
    renderAt(projectPath, manager);
    const first = await screen.findByRole('textbox', { name: 'Петров Пётр Петрович (No. 0007)' });
    await user.type(first, '1000,5');
    expect((await screen.findByRole('alert')).textContent).toMatch(/exceed the remuneration by .*0\.50/);
    expect(screen.getByRole('button', { name: 'Save the payments' }).hasAttribute('disabled')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Split evenly' }));
    expect((first as HTMLInputElement).value).toBe('500');
    await user.click(screen.getByRole('button', { name: 'Save the payments' }));
    expect(await screen.findByText('Waiting to send')).toBeTruthy();
    const [row] = await getAppDatabase().outbox.toArray();
    expect(row).toMatchObject({ kind: PROJECT_PAYMENTS_KIND, method: 'PATCH' });
    expect((await getAppDatabase().projects.get([PM_USER, ID]))?.payments).toEqual([
      { employeeId: PM_EMP, amountMinor: 50_000 },
      { employeeId: MATE_EMP, amountMinor: 50_000 },
    ]);
  });

  it('are read-only for everyone else', async () => {
    await seed(EMP_USER, { status: 'APPROVED', remunerationMinor: 100_000, payments: [{ employeeId: MATE_EMP, amountMinor: 100_000 }] });
    renderAt(projectPath, worker);
    const table = await screen.findByRole('table');
    expect(within(table).getByText('Иванов Иван')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Save the payments' })).toBeNull();
  });
});

/** A paragraph reading exactly `text` (dates and amounts are elements of their own inside it). */
function paragraph(text: string) {
  return (_: string, element: Element | null) => element?.tagName === 'P' && element.textContent === text;
}

describe('the result pages', () => {
  it('say what happened, in both languages', async () => {
    await seed(PM_USER, {
      status: 'COMPLETED',
      actualCompletionDate: '2026-11-20',
      actualEffect12mMinor: 900_000,
      nextReportDue: '2027-02-20',
      indicatorReports: [{ id: 'r1', date: '2026-11-19', value: 25, comment: null, at: AT, byUserId: PM_USER, byName: 'Петров Пётр' }],
    });
    renderAt(`${projectPath}/complete-success`, manager);
    expect(await screen.findByText(paragraph('The project “Быстрая переналадка” is completed on 11/20/2026.'))).toBeTruthy();
    expect(screen.getByText(paragraph('Post-monitoring: the next indicator report is due 02/20/2027.'))).toBeTruthy();
    expect(screen.getByText('The server has it.')).toBeTruthy();
    cleanup();

    renderAt(`${projectPath}/complete-success`, manager, 'ru');
    expect(await screen.findByText(paragraph('Проект «Быстрая переналадка» завершён 20.11.2026.'))).toBeTruthy();
    cleanup();

    renderAt(`${projectPath}/indicator-success`, manager, 'ru');
    expect(await screen.findByText(paragraph('По проекту «Быстрая переналадка» передано значение показателя: 25 на 19.11.2026.'))).toBeTruthy();
    expect(screen.getByText(paragraph('Следующий отчёт — до 20.02.2027.'))).toBeTruthy();
  });
});
