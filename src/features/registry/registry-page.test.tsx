import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Project } from '../../domain/project';
import { registryTotals, type Registry } from '../../domain/registry';
import type { CurrentUser } from '../../domain/user';
import { getAppDatabase } from '../../lib/db/database';
import { entityKeyOf } from '../../lib/outbox/outbox';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { employeeRow, projectRow, registryRow } from '../../../tests/fixtures/rows';
import RegistryPage from './pages/registry-page';
import RegistrySuccessPage from './pages/registry-success-page';
import { REGISTRY_SEND_KIND } from './store';

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const P1 = '00000000-0000-4000-8000-0000000000f1';
const P2 = '00000000-0000-4000-8000-0000000000f2';
const PM_EMP = '00000000-0000-4000-8000-0000000000e1';
const REG = '00000000-0000-4000-8000-0000000000b1';
const REG_LOCAL = '00000000-0000-4000-8000-0000000000b9';
const DM_USER = '00000000-0000-4000-8000-0000000000a1';
const OWNER_USER = '00000000-0000-4000-8000-0000000000a2';
const EMP_USER = '00000000-0000-4000-8000-0000000000a3';
const FD_USER = '00000000-0000-4000-8000-0000000000a4';

const director = testUser(DM_USER, 'Директоров Дмитрий', ['DIRECTION_MANAGER'], { companyId: COMPANY });
const findir = testUser(FD_USER, 'Финансов Фёдор', ['FINANCIAL_DIRECTOR'], { companyId: COMPANY });
const owner = testUser(OWNER_USER, 'Владельцев Олег', ['OWNER'], { companyId: COMPANY });
const worker = testUser(EMP_USER, 'Рабочий Роман', ['EMPLOYEE'], { companyId: COMPANY });

function project(id: string, fields: Partial<Project> = {}): Project {
  return projectRow(id, {
    companyId: COMPANY,
    projectManagerEmployeeId: PM_EMP,
    status: 'APPROVED',
    estimatedCostsMinor: 10_000_050,
    expectedEffect12mMinor: 50_000_000,
    remunerationMinor: 5_000_000,
    ...fields,
  });
}

function sent(id: string, number: number, fields: Partial<Registry> = {}): Registry {
  const items: Registry['items'] = [
    {
      projectId: P2,
      name: 'Ящики с ячейками',
      departmentId: null,
      projectManagerName: 'Петров Пётр',
      currency: 'RUB',
      estimatedCostsMinor: 2_000_000,
      expectedEffect12mMinor: 9_000_000,
      remunerationMinor: 900_000,
      finalCostMinor: null,
      adjustmentReason: null,
    },
  ];
  return registryRow(id, { companyId: COMPANY, number, items, totals: registryTotals(items), ...fields });
}

async function seed(user: CurrentUser, projects: Project[], registries: Registry[] = []): Promise<void> {
  const db = getAppDatabase();
  await db.projects.bulkPut(projects.map((row) => ({ ...row, ownerUserId: user.id })));
  await db.registries.bulkPut(registries.map((row) => ({ ...row, ownerUserId: user.id })));
  await db.employees.put({ ...employeeRow(PM_EMP, { companyId: COMPANY, lastName: 'Петров', firstName: 'Пётр', middleName: null }), ownerUserId: user.id });
}

beforeEach(clearAppDatabase);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderAt(path: string, user: CurrentUser, locale: 'en' | 'ru' = 'en') {
  return renderPage(
    path,
    <>
      <Route path="/companies/:companyId/registry" component={RegistryPage} />
      <Route path="/companies/:companyId/registry-success" component={RegistrySuccessPage} />
    </>,
    { user, locale },
  );
}

const registryPath = `/companies/${COMPANY}/registry`;

describe('the registry page', () => {
  it('shows the open registry to the direction manager, who sends it to the owner on the device and sees the result', async () => {
    await seed(director, [project(P1, { name: 'Быстрая переналадка' }), project(P2, { name: 'Ящики', currency: 'USD', estimatedCostsMinor: 70_000 })]);
    const user = userEvent.setup();
    const location = renderAt(registryPath, director);
    const open = await screen.findByTestId('registry-open');
    await within(open).findByRole('link', { name: 'Быстрая переналадка' });
    const rows = within(open).getAllByRole('row');
    // Header, two projects; then the totals' header and one row per currency.
    expect(rows.map((row) => row.getAttribute('data-project') ?? row.getAttribute('data-currency'))).toEqual([null, P1, P2, null, 'RUB', 'USD']);
    const first = rows[1];
    if (!first) throw new Error('no row');
    expect(first.textContent).toContain('Петров Пётр');
    expect(first.textContent).toContain('RUB');
    expect(first.textContent).toContain('100,000.50');
    expect(within(open).getByText('Approved projects not yet sent to the owner: 2 projects.')).toBeTruthy();

    await user.click(screen.getByTestId('registry-send'));
    expect(await screen.findByRole('heading', { name: 'Registry sent' })).toBeTruthy();
    const last = location.history.at(-1) ?? '';
    expect(last).toMatch(/^\/companies\/.+\/registry-success\?id=[0-9a-f-]{36}$/);
    expect(screen.getByText(/The registry of 2 projects is saved on this device/)).toBeTruthy();
    expect(screen.getByText('Saved on this device; it will be sent when the connection returns.')).toBeTruthy();
    const id = new URLSearchParams(last.split('?')[1]).get('id') ?? '';
    const rowsQueued = await getAppDatabase().outbox.toArray();
    expect(rowsQueued).toEqual([expect.objectContaining({ kind: REGISTRY_SEND_KIND, entityKey: entityKeyOf('registries', id), body: { id, projectIds: [P1, P2] } })]);
    expect((await getAppDatabase().projects.get([DM_USER, P1]))?.registryId).toBe(id);
  });

  it('shows the sent registry waiting to be sent, and the open registry empty with the send disabled and its reason', async () => {
    await seed(findir, [project(P1, { registryId: REG_LOCAL })], [sent(REG_LOCAL, 0, { sentByName: 'Финансов Фёдор' })]);
    await getAppDatabase().outbox.add({
      id: 'k1',
      ownerUserId: FD_USER,
      kind: REGISTRY_SEND_KIND,
      method: 'POST',
      path: `/api/v1/companies/${COMPANY}/registry/send`,
      body: { id: REG_LOCAL, projectIds: [P2] },
      fileIds: [],
      entityKey: entityKeyOf('registries', REG_LOCAL),
      dependsOn: null,
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      lastError: null,
      createdAt: 0,
      updatedAt: 0,
    });
    renderAt(registryPath, findir);
    const send = await screen.findByTestId('registry-send');
    expect(send.hasAttribute('disabled')).toBe(true);
    expect(screen.getByText('There is nothing to send: the open registry has no projects.').id).toBe(send.getAttribute('aria-describedby'));
    const card = await screen.findByTestId('registry-past-0');
    expect(within(card).getByRole('heading', { name: 'New registry, waiting to be sent' })).toBeTruthy();
    expect(within(card).getByText('Waiting to be sent')).toBeTruthy();
    // The server has not numbered it: no downloads yet.
    expect(within(card).queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it('gives an employee a read-only view: no send, who sends, the past registries with their items and downloads, no review', async () => {
    await seed(worker, [project(P1)], [sent(REG, 3, { status: 'APPROVED', decidedByName: 'Владельцев Олег', decidedAt: '2026-11-21T09:00:00.000Z', comment: 'Хорошо' })]);
    const user = userEvent.setup();
    renderAt(registryPath, worker);
    await screen.findByTestId('registry-open');
    expect(screen.queryByTestId('registry-send')).toBeNull();
    expect(screen.getByText('The direction manager or the financial director sends the open registry to the owner.')).toBeTruthy();
    const card = screen.getByTestId('registry-past-3');
    expect(within(card).getByRole('heading', { name: 'Registry No. 3' })).toBeTruthy();
    expect(within(card).getByText('Approved by the owner')).toBeTruthy();
    expect(within(card).getByText('Хорошо')).toBeTruthy();
    expect(within(card).getByText(/Владельцев Олег/)).toBeTruthy();
    expect(within(card).queryByRole('link', { name: 'Review and approve' })).toBeNull();
    expect(within(card).getByTestId('registry-export-xlsx-3')).toBeTruthy();
    expect(within(card).getByTestId('registry-export-pdf-3')).toBeTruthy();
    const toggle = within(card).getByRole('button', { name: 'Projects (1)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(within(card).getByRole('link', { name: 'Ящики с ячейками' })).toBeTruthy();
  });

  it('leads the owner from a SENT registry to its review', async () => {
    await seed(owner, [], [sent(REG, 4), sent('r-old', 2, { status: 'RETURNED', comment: 'Пересчитать' })]);
    renderAt(registryPath, owner);
    const card = await screen.findByTestId('registry-past-4');
    expect(within(card).getByRole('link', { name: 'Review and approve' }).getAttribute('href')).toBe(`/companies/${COMPANY}/registry-approve?id=${REG}`);
    expect(within(screen.getByTestId('registry-past-2')).queryByRole('link', { name: 'Review and approve' })).toBeNull();
    // Newest first.
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('data-testid'))).toEqual(['registry-past-4', 'registry-past-2']);
  });

  it('says plainly that a download needs the connection when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await seed(worker, [], [sent(REG, 5)]);
    const user = userEvent.setup();
    renderAt(registryPath, worker);
    await user.click(await screen.findByTestId('registry-export-pdf-5'));
    expect(await screen.findByText(/downloads need a connection to the server/, {}, { timeout: 3000 })).toBeTruthy();
  });

  it('downloads the XLSX of a registry through the bearer-token client', async () => {
    const urlOf = (input: Parameters<typeof globalThis.fetch>[0] | undefined): string => (typeof input === 'string' ? input : input instanceof URL ? input.href : (input?.url ?? ''));
    const fetch = vi.fn<typeof globalThis.fetch>((input) =>
      Promise.resolve(
        urlOf(input).includes('/export')
          ? new Response(new TextEncoder().encode('xlsx'), { status: 200, headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Content-Disposition': 'attachment; filename="registry-5.xlsx"' } })
          : new Response(JSON.stringify({ data: { status: 'ok' } }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const createObjectURL = vi.fn(() => 'blob:registry');
    vi.stubGlobal(
      'URL',
      class extends URL {
        static override createObjectURL = createObjectURL;
        static override revokeObjectURL = vi.fn();
      },
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await seed(worker, [], [sent(REG, 5)]);
    const user = userEvent.setup();
    renderAt(registryPath, worker);
    await user.click(await screen.findByTestId('registry-export-xlsx-5'));
    await waitFor(() => expect(click).toHaveBeenCalledOnce());
    click.mockRestore();
    const exportCall = fetch.mock.calls.find(([input]) => urlOf(input).includes('/export'));
    expect(urlOf(exportCall?.[0])).toBe(`/main-service/api/v1/companies/${COMPANY}/registry/${REG}/export?format=xlsx`);
    expect(createObjectURL).toHaveBeenCalledOnce();
  });

  it('speaks Russian', async () => {
    await seed(director, [project(P1, { name: 'Быстрая переналадка' })], [sent(REG, 1)]);
    renderAt(registryPath, director, 'ru');
    expect(await screen.findByRole('heading', { name: 'Открытый реестр' })).toBeTruthy();
    expect(screen.getByTestId('registry-send').textContent).toBe('Отправить владельцу');
    expect(screen.getByText('Утверждённые проекты, ещё не отправленные владельцу: 1 проект.')).toBeTruthy();
    expect(within(screen.getByTestId('registry-past-1')).getByRole('heading', { name: 'Реестр № 1' })).toBeTruthy();
    expect(within(screen.getByTestId('registry-past-1')).getByText('У владельца, ждёт решения')).toBeTruthy();
  });
});
