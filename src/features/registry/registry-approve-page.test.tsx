import 'fake-indexeddb/auto';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Project } from '../../domain/project';
import { registryTotals, type Registry } from '../../domain/registry';
import type { CurrentUser } from '../../domain/user';
import { getAppDatabase } from '../../lib/db/database';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { projectRow, registryRow } from '../../../tests/fixtures/rows';
import RegistryApprovePage from './pages/registry-approve-page';
import RegistryApproveSuccessPage from './pages/registry-approve-success-page';
import RegistryPage from './pages/registry-page';
import { REGISTRY_APPROVE_KIND, REGISTRY_RETURN_KIND } from './store';

const COMPANY = '00000000-0000-4000-8000-0000000000c1';
const P1 = '00000000-0000-4000-8000-0000000000f1';
const P2 = '00000000-0000-4000-8000-0000000000f2';
const P3 = '00000000-0000-4000-8000-0000000000f3';
const REG = '00000000-0000-4000-8000-0000000000b1';
const DM_USER = '00000000-0000-4000-8000-0000000000a1';
const OWNER_USER = '00000000-0000-4000-8000-0000000000a2';
const EMP_USER = '00000000-0000-4000-8000-0000000000a3';

const director = testUser(DM_USER, 'Директоров Дмитрий', ['DIRECTION_MANAGER'], { companyId: COMPANY });
const owner = testUser(OWNER_USER, 'Владельцев Олег', ['OWNER'], { companyId: COMPANY });
const worker = testUser(EMP_USER, 'Рабочий Роман', ['EMPLOYEE'], { companyId: COMPANY });

function item(projectId: string, name: string, fields: Partial<Registry['items'][number]> = {}): Registry['items'][number] {
  return {
    projectId,
    name,
    departmentId: null,
    projectManagerName: 'Петров Пётр',
    currency: 'RUB',
    estimatedCostsMinor: 10_000_000,
    expectedEffect12mMinor: 50_000_000,
    remunerationMinor: 5_000_000,
    finalCostMinor: null,
    adjustmentReason: null,
    ...fields,
  };
}

/** Registry No. 4, SENT: two projects in roubles (100,000.00 and 20,000.00), one in dollars (300.00). */
function sent(fields: Partial<Registry> = {}): Registry {
  const items = [item(P1, 'Быстрая переналадка'), item(P2, 'Ящики с ячейками', { estimatedCostsMinor: 2_000_000 }), item(P3, 'Pallets', { currency: 'USD', estimatedCostsMinor: 30_000 })];
  return registryRow(REG, { companyId: COMPANY, number: 4, items, totals: registryTotals(items), sentByUserId: DM_USER, ...fields });
}

async function seed(user: CurrentUser, registries: Registry[], projects: Project[] = []): Promise<void> {
  const db = getAppDatabase();
  await db.registries.bulkPut(registries.map((row) => ({ ...row, ownerUserId: user.id })));
  await db.projects.bulkPut(projects.map((row) => ({ ...row, ownerUserId: user.id })));
}

beforeEach(clearAppDatabase);
afterEach(cleanup);

function renderAt(path: string, user: CurrentUser, locale: 'en' | 'ru' = 'en') {
  return renderPage(
    path,
    <>
      <Route path="/companies/:companyId/registry" component={RegistryPage} />
      <Route path="/companies/:companyId/registry-approve" component={RegistryApprovePage} />
      <Route path="/companies/:companyId/registry-approve/success" component={RegistryApproveSuccessPage} />
    </>,
    { user, locale },
  );
}

const approvePath = `/companies/${COMPANY}/registry-approve`;

function finalCosts(currency: string): string {
  const row = within(screen.getByTestId('registry-totals')).getAllByRole('row').find((candidate) => candidate.getAttribute('data-currency') === currency);
  return spaced(row?.querySelector('[data-field="finalCosts"]')?.textContent);
}

/** Text with Intl's no-break spaces as plain ones. */
function spaced(text: string | null | undefined): string {
  return (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
}

describe('the owner’s review of a registry', () => {
  it('shows each project, updates the totals as the owner types, requires a reason for a new cost, and approves on the device', async () => {
    await seed(owner, [sent()]);
    const user = userEvent.setup();
    const location = renderAt(approvePath, owner);
    const first = await screen.findByTestId(`registry-item-${P1}`);
    expect(within(first).getByRole('heading', { name: 'Быстрая переналадка' })).toBeTruthy();
    expect(spaced(first.querySelector('[data-field="estimatedCosts"]')?.textContent)).toBe('RUB 100,000.00');
    expect(finalCosts('RUB')).toBe('RUB 120,000.00');
    expect(finalCosts('USD')).toBe('$300.00');

    await user.type(screen.getByTestId(`registry-final-cost-${P1}`), '80000,5');
    expect(finalCosts('RUB')).toBe('RUB 100,000.50');
    expect(screen.getByText('1 project with an adjusted cost.')).toBeTruthy();
    expect(screen.getByTestId(`registry-reason-${P1}`)).toBeTruthy();

    await user.click(screen.getByTestId('registry-approve'));
    expect(await screen.findByText('Give the reason for the new cost: it is kept with the registry.')).toBeTruthy();
    expect(await getAppDatabase().outbox.count()).toBe(0);

    await user.type(screen.getByTestId(`registry-reason-${P1}`), 'Поставщик дал скидку');
    await user.type(screen.getByRole('textbox', { name: /Comment/ }), 'Согласовано');
    await user.click(screen.getByTestId('registry-approve'));
    expect(await screen.findByRole('heading', { name: 'Registry approved' })).toBeTruthy();
    expect(location.history.at(-1)).toBe(`/companies/${COMPANY}/registry-approve/success?id=${REG}`);
    expect(screen.getByText(/Registry No. 4 is approved: 3 projects, 1 cost adjusted/)).toBeTruthy();
    expect(screen.getByText('Saved on this device; it will be sent when the connection returns.')).toBeTruthy();

    const stored = await getAppDatabase().registries.get([OWNER_USER, REG]);
    expect(stored?.status).toBe('APPROVED');
    expect(stored?.comment).toBe('Согласовано');
    expect(stored?.items[0]).toMatchObject({ finalCostMinor: 8_000_050, adjustmentReason: 'Поставщик дал скидку' });
    expect(await getAppDatabase().outbox.toArray()).toEqual([
      expect.objectContaining({
        kind: REGISTRY_APPROVE_KIND,
        body: { adjustments: [{ projectId: P1, finalCostMinor: 8_000_050, reason: 'Поставщик дал скидку' }], comment: 'Согласовано' },
      }),
    ]);
  });

  it('explains an amount it cannot read, and takes a cost equal to the calculated one as no adjustment', async () => {
    await seed(owner, [sent()]);
    const user = userEvent.setup();
    renderAt(`${approvePath}?id=${REG}`, owner);
    const cost = await screen.findByTestId(`registry-final-cost-${P2}`);
    await user.type(cost, '12,345');
    await user.tab();
    expect(await screen.findByText('At most 2 digits after the decimal point.')).toBeTruthy();
    await user.click(screen.getByTestId('registry-approve'));
    expect(await getAppDatabase().outbox.count()).toBe(0);
    expect(document.activeElement).toBe(cost);

    await user.clear(cost);
    await user.type(cost, '20 000');
    expect(screen.getByText('No cost adjusted: the calculated costs stand.')).toBeTruthy();
    await user.click(screen.getByTestId('registry-approve'));
    await screen.findByRole('heading', { name: 'Registry approved' });
    expect((await getAppDatabase().outbox.toArray())[0]?.body).toEqual({ adjustments: [], comment: null });
  });

  it('returns the registry only with a comment, asked in a dialog, and shows the notice on the registry page', async () => {
    await seed(owner, [sent()], [projectRow(P1, { companyId: COMPANY, status: 'APPROVED', registryId: REG, estimatedCostsMinor: 10_000_000 })]);
    const user = userEvent.setup();
    const location = renderAt(approvePath, owner);
    await user.click(await screen.findByTestId('registry-return'));
    const dialog = await screen.findByRole('dialog', { name: 'Return the registry?' });
    await user.click(within(dialog).getByRole('button', { name: 'Return the registry' }));
    // The dialog opens again (the first one closing meanwhile) with the error beside the field.
    const error = await screen.findByText('Write a comment: a registry is returned only with one.', {}, { timeout: 3000 });
    const again = error.closest<HTMLElement>('[role="dialog"]');
    if (!again) throw new Error('the error is not in a dialog');
    expect(await getAppDatabase().outbox.count()).toBe(0);

    await user.type(within(again).getByRole('textbox', { name: /Why do you return it/ }), 'Пересчитайте затраты');
    await user.click(within(again).getByRole('button', { name: 'Return the registry' }));
    await waitFor(() => expect(location.history.at(-1)).toBe(`/companies/${COMPANY}/registry?returned=${REG}`));
    expect(await screen.findByText(/Registry No. 4 is returned with your comment/)).toBeTruthy();
    expect((await getAppDatabase().registries.get([OWNER_USER, REG]))?.status).toBe('RETURNED');
    expect((await getAppDatabase().projects.get([OWNER_USER, P1]))?.registryId).toBeNull();
    expect(await getAppDatabase().outbox.toArray()).toEqual([expect.objectContaining({ kind: REGISTRY_RETURN_KIND, body: { comment: 'Пересчитайте затраты' } })]);
    // Its project is back in the open registry.
    expect(await within(screen.getByTestId('registry-open')).findByRole('link', { name: 'Быстрая переналадка' })).toBeTruthy();
  });

  it('gives the direction manager and an employee a read-only view with the reason', async () => {
    for (const user of [director, worker]) {
      await seed(user, [sent()]);
      renderAt(`${approvePath}?id=${REG}`, user);
      expect(await screen.findByText('Only the owner approves or returns a registry. You see it as it was sent.')).toBeTruthy();
      expect(screen.queryByTestId('registry-approve')).toBeNull();
      expect(screen.queryByTestId('registry-return')).toBeNull();
      expect(screen.queryByTestId(`registry-final-cost-${P1}`)).toBeNull();
      expect(within(screen.getByTestId('registry-totals')).getByText('RUB')).toBeTruthy();
      cleanup();
    }
  });

  it('shows a decided registry read-only to the owner too, and a clear empty state when none waits', async () => {
    await seed(owner, [sent({ status: 'APPROVED', decidedAt: '2026-11-21T09:00:00.000Z', decidedByName: 'Владельцев Олег' })]);
    renderAt(`${approvePath}?id=${REG}`, owner);
    expect(await screen.findByText('This registry is no longer waiting for a decision: it is approved.')).toBeTruthy();
    expect(screen.queryByTestId('registry-approve')).toBeNull();
    cleanup();

    renderAt(approvePath, owner);
    expect(await screen.findByText('No registry is waiting for the owner’s approval.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'To the registry' }).getAttribute('href')).toBe(`/companies/${COMPANY}/registry`);
  });

  it('speaks Russian', async () => {
    await seed(owner, [sent()]);
    const user = userEvent.setup();
    renderAt(approvePath, owner, 'ru');
    expect(await screen.findByRole('heading', { name: 'Утверждение реестра' })).toBeTruthy();
    expect(screen.getByTestId('registry-approve').textContent).toBe('Утвердить');
    await user.type(screen.getByTestId(`registry-final-cost-${P1}`), '90000');
    expect(screen.getByText('Стоимость изменена у 1 проекта.')).toBeTruthy();
    await user.click(screen.getByTestId('registry-approve'));
    expect(await screen.findByText('Укажите причину новой стоимости: она сохранится в реестре.')).toBeTruthy();
  });
});
