import 'fake-indexeddb/auto';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSyncExternalStore } from 'react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Dashboard } from '../../domain/dashboard';
import type { CurrentUser } from '../../domain/user';
import type * as ConnectivityModule from '../../lib/connectivity';
import { getAppDatabase } from '../../lib/db/database';
import { HttpError } from '../../lib/http';
import { clearAppDatabase, renderPage, testUser } from '../../../tests/fixtures/render-page';
import { departmentRow, employeeRow, registryRow } from '../../../tests/fixtures/rows';
import { dashboardKeyOf } from './figures-store';
import DashboardPage from './pages/dashboard-page';
import { COMPANY, LOGISTICS, PRODUCTION, dashboardOf } from './test-fixtures';

interface SentRequest {
  method: string;
  url: string;
  body?: unknown;
  idempotencyKey?: string;
}

/** The network as the page sees it, the server's answers, and the charts drawn (chart.js stands in). */
interface Device {
  network: 'online' | 'offline' | 'unknown';
  listeners: Set<() => void>;
  get: null | ((path: string, params?: Record<string, unknown>, options?: unknown) => Promise<unknown>);
  exchange: null | ((request: SentRequest) => Promise<unknown>);
  charts: { canvas: HTMLCanvasElement; config: { type: string; data: { labels: string[] } } }[];
  chartLoad: 'draw' | 'fail';
  saved: { blob: Blob; fileName: string }[];
}

const device = vi.hoisted(
  (): Device => ({ network: 'offline', listeners: new Set(), get: null, exchange: null, charts: [], chartLoad: 'draw', saved: [] }),
);

vi.mock('../../lib/api', () => ({
  http: {
    get: (path: string, params?: Record<string, unknown>, options?: unknown) => (device.get ? device.get(path, params, options) : Promise.reject(new HttpError(0, null))),
    // The JSON PUT over the device's exchange: what it sent, and the answer as HttpClient.put gives it.
    put: async (url: string, body: unknown, options?: { headers?: Record<string, string> }) => {
      const request = { method: 'PUT', url, body, idempotencyKey: options?.headers?.['Idempotency-Key'] };
      const answer = (await (device.exchange ? device.exchange(request) : Promise.resolve({ kind: 'network' }))) as { kind: string; status?: number; body?: unknown };
      if (answer.kind !== 'answer' || answer.status === undefined) throw new HttpError(0, null);
      if (answer.status >= 300) throw new HttpError(answer.status, answer.body as never);
      return answer.body;
    },
  },
}));

vi.mock('../../lib/connectivity', async (importOriginal) => {
  const original = await importOriginal<typeof ConnectivityModule>();
  return {
    ...original,
    useConnectivity: () =>
      useSyncExternalStore(
        (onChange: () => void) => {
          device.listeners.add(onChange);
          return () => device.listeners.delete(onChange);
        },
        () => device.network,
      ),
  };
});

vi.mock('./components/chart-loader', () => ({
  loadChart: () => {
    if (device.chartLoad === 'fail') return Promise.reject(new Error('chart.js is not here'));
    class StandInChart {
      constructor(canvas: HTMLCanvasElement, config: { type: string; data: { labels: string[] } }) {
        device.charts.push({ canvas, config });
      }
      destroy() {}
    }
    return Promise.resolve(StandInChart);
  },
}));

vi.mock('../../lib/download', () => ({
  saveFile: (blob: Blob, fileName: string) => {
    device.saved.push({ blob, fileName });
  },
}));

const OWNER = '00000000-0000-4000-8000-0000000000a1';
const CEO = '00000000-0000-4000-8000-0000000000a2';
const FINDIR = '00000000-0000-4000-8000-0000000000a3';
const HEAD = '00000000-0000-4000-8000-0000000000a4';
const WORKER = '00000000-0000-4000-8000-0000000000a5';
const NEWCOMER = '00000000-0000-4000-8000-0000000000a6';
const WAREHOUSE = '00000000-0000-4000-8000-0000000000d3';

const YEAR = '/dashboard?from=2026-01-01&to=2026-12-31';
const YEAR_KEY = dashboardKeyOf('2026-01-01', '2026-12-31', null);

const userOf = (id: string, name: string, roles: string[]): CurrentUser => testUser(id, name, roles, { companyId: COMPANY });

function setNetwork(state: 'online' | 'offline') {
  act(() => {
    device.network = state;
    for (const listener of device.listeners) listener();
  });
}

/** A company that is ready (owner, manager, financial director joined), with three departments. */
async function seedCompany(viewer: string) {
  const db = getAppDatabase();
  const own = <T extends object>(row: T) => ({ ...row, companyId: COMPANY, ownerUserId: viewer });
  await db.departments.bulkPut([
    own(departmentRow(PRODUCTION, 'Производство', { headUserId: HEAD })),
    own(departmentRow(LOGISTICS, 'Логистика', { headUserId: HEAD })),
    own(departmentRow(WAREHOUSE, 'Склад')),
  ]);
  await db.employees.bulkPut([
    own(employeeRow('e-owner', { userId: OWNER, roles: ['OWNER'] })),
    own(employeeRow('e-ceo', { userId: CEO, roles: ['CEO'] })),
    own(employeeRow('e-findir', { userId: FINDIR, roles: ['FINANCIAL_DIRECTOR'] })),
    own(employeeRow('e-head', { userId: HEAD, roles: ['MIDDLE_MANAGER'], departmentId: PRODUCTION })),
    own(employeeRow('e-worker', { userId: WORKER, roles: ['EMPLOYEE'], departmentId: WAREHOUSE })),
    own(employeeRow('e-newcomer', { userId: NEWCOMER, roles: ['EMPLOYEE'] })),
  ]);
  await pulledWhole(viewer);
}

/** The device has pulled the whole company once (the dashboard says nothing of its setup before). */
async function pulledWhole(viewer: string) {
  await getAppDatabase().syncState.put({ ownerUserId: viewer, companyId: COMPANY, cursor: '1', pulledAt: 1, caughtUpAt: 1 });
}

async function storeDashboard(viewer: string, dashboard: Dashboard = dashboardOf(), key = YEAR_KEY) {
  await getAppDatabase().dashboards.put({ ownerUserId: viewer, companyId: COMPANY, key, dashboard, fetchedAt: 1 });
}

function renderAt(path: string, user: CurrentUser, locale: 'en' | 'ru' = 'en') {
  return renderPage(path, <Route path="/dashboard" component={DashboardPage} />, {
    user,
    locale,
    units: [{ id: 'MINUTES', title: 'min', type: 'BASE_INDICATOR' }],
  });
}

const spaced = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');

/** The dashboard requests the server got, as [path, params]. */
function dashboardRequests(get: { mock: { calls: unknown[][] } }): unknown[][] {
  return get.mock.calls.filter(([path]) => String(path).endsWith('/dashboard'));
}

beforeEach(async () => {
  await clearAppDatabase();
  device.network = 'offline';
  device.get = null;
  device.exchange = null;
  device.charts = [];
  device.chartLoad = 'draw';
  device.saved = [];
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the dashboard figures offline', () => {
  it('shows the figures stored on the device at once, with their date and a calm note, without asking the server', async () => {
    await seedCompany(CEO);
    await storeDashboard(CEO);
    const get = vi.fn(() => Promise.reject(new HttpError(0, null)));
    device.get = get;
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));

    const figures = await screen.findByTestId('dashboard-figures');
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByTestId('dashboard-as-of').textContent).toMatch(/^Figures as of .*2026/);
    expect(document.querySelector('[data-note="offline"]')?.textContent).toContain('they may be out of date');
    expect(spaced(within(figures).getByTestId('dashboard-costs-RUB').textContent)).toBe('RUB 500,000.00');
    expect(within(figures).getByTestId('dashboard-efficiency-RUB').textContent).toBe('250.0%');
    expect(within(figures).getByTestId('dashboard-efficiency-USD').textContent).toBe('none');
    expect(spaced(within(figures).getByTestId('dashboard-approved-remuneration-RUB').textContent)).toBe('RUB 40,000.00');
    expect(spaced(within(figures).getByTestId('dashboard-expected-effect-RUB').textContent)).toContain('RUB 1,250,000.50');
    expect(within(figures).getByTestId('dashboard-ebitda-share-RUB').textContent).toContain('12.5%');
    expect(within(figures).getByTestId('dashboard-median-decision').textContent).toContain('2.5 days');
    expect(within(figures).getByTestId('dashboard-involvement-share').textContent).toBe('40.0%');
    expect(within(figures).getByText('20 of 50 active employees')).toBeTruthy();
    expect(spaced(within(figures).getByText(/^EBITDA of the period:/).textContent)).toBe('EBITDA of the period: RUB 10,000,000.00');
    expect(within(figures).getByTestId('dashboard-projects-APPROVED').textContent).toContain('2');
    expect(within(figures).getByText('30 of 120 min (25.0%)')).toBeTruthy();
    expect(within(figures).getByRole('link', { name: 'All projects' }).getAttribute('href')).toBe(`/companies/${COMPANY}/projects`);
    expect(within(figures).getByRole('link', { name: 'All goals' }).getAttribute('href')).toBe(`/companies/${COMPANY}/goals`);
    expect(within(figures).getByRole('link', { name: 'The registry of approved projects' }).getAttribute('href')).toBe(`/companies/${COMPANY}/registry`);
    expect(get).not.toHaveBeenCalled();
  });

  it('says in Russian what it says in English, with Russian number formats', async () => {
    await seedCompany(CEO);
    await storeDashboard(CEO);
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']), 'ru');

    const figures = await screen.findByTestId('dashboard-figures');
    expect(screen.getByRole('heading', { level: 1, name: 'Дашборд' })).toBeTruthy();
    expect(screen.getByTestId('dashboard-as-of').textContent).toMatch(/^Данные на .*2026/);
    expect(document.querySelector('[data-note="offline"]')?.textContent).toContain('могут быть устаревшими');
    expect(spaced(within(figures).getByTestId('dashboard-costs-RUB').textContent)).toContain('500 000,00 ₽');
    expect(spaced(within(figures).getByTestId('dashboard-efficiency-RUB').textContent)).toContain('250,0 %');
    expect(within(figures).getByTestId('dashboard-median-decision').textContent).toContain('2,5 дня');
    expect(screen.getByRole('table', { name: 'От предложения к результату' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Экономический эффект по месяцам, RUB' })).toBeTruthy();
  });

  it('has a table with a caption for every chart, and the figures without chart.js', async () => {
    device.chartLoad = 'fail';
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await seedCompany(CEO);
    await storeDashboard(CEO);
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));

    await screen.findByTestId('dashboard-figures');
    const effect = screen.getByRole('table', { name: 'Economic effect by month, RUB' });
    expect(within(effect).getAllByRole('row').map((row) => spaced(row.textContent))).toEqual([
      'MonthExpectedActual',
      'January 2026RUB 1,000,000.00RUB 0.00',
      'February 2026RUB 250,000.50RUB 300,000.00',
    ]);
    expect(screen.getByRole('table', { name: 'Economic effect by month, USD' })).toBeTruthy();
    const funnel = screen.getByRole('table', { name: 'From proposal to result' });
    expect(within(funnel).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'StageCount',
      'Proposals submitted40',
      'Made into projects8',
      'Projects approved3',
      'Projects completed1',
    ]);
    const involvement = screen.getByRole('table', { name: 'Staff involvement by department' });
    expect(within(involvement).getAllByRole('row').map((row) => row.textContent)).toEqual([
      'DepartmentActive employeesInvolved employeesShare involved',
      'Логистика20525.0%',
      '+Производство301550.0%',
    ]);
    for (const id of ['dashboard-chart-effect', 'dashboard-chart-funnel', 'dashboard-chart-involvement']) expect(screen.getByTestId(id)).toBeTruthy();
    await waitFor(() => expect(warn).toHaveBeenCalledWith('The chart could not be loaded; its table holds the figures', expect.any(Error)));
    expect(device.charts).toEqual([]);
    warn.mockRestore();
  });

  it('draws each chart on a canvas that reads as an image with a summary, and shows a table on request', async () => {
    await seedCompany(CEO);
    await storeDashboard(CEO);
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));

    await screen.findByTestId('dashboard-figures');
    await waitFor(() => expect(device.charts).toHaveLength(4));
    expect(device.charts.map((chart) => chart.config.data.labels)).toEqual([
      ['Jan 2026', 'Feb 2026'],
      ['Jan 2026', 'Feb 2026'],
      ['Proposals submitted', 'Made into projects', 'Projects approved', 'Projects completed'],
      ['Логистика', '+Производство'],
    ]);
    const funnel = screen.getByTestId('dashboard-chart-funnel');
    expect(within(funnel).getByRole('img').getAttribute('aria-label')).toBe(
      'Of 40 proposals submitted, 8 became projects, 3 were approved and 1 completed.',
    );
    const table = within(funnel).getByRole('table').parentElement;
    expect(table?.className).toContain('visually-hidden');
    await userEvent.click(within(funnel).getByRole('button', { name: 'Show the table' }));
    expect(table?.className).not.toContain('visually-hidden');
  });
});

describe('the dashboard figures from the server', () => {
  it('asks for the period, keeps the answer on the device and shows it as current', async () => {
    await seedCompany(CEO);
    device.network = 'online';
    const answer = dashboardOf();
    const get = vi.fn(() => Promise.resolve({ data: answer }));
    device.get = get;
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));

    const costs = await screen.findByTestId('dashboard-costs-RUB');
    expect(spaced(costs.textContent)).toContain('RUB 500,000.00');
    expect(dashboardRequests(get)).toEqual([[`/api/v1/companies/${COMPANY}/dashboard`, { from: '2026-01-01', to: '2026-12-31', departmentId: undefined }, { minDuration: 0 }]]);
    expect((await getAppDatabase().dashboards.get([CEO, COMPANY, YEAR_KEY]))?.dashboard).toEqual(answer);
    await waitFor(() => expect(screen.getByTestId('dashboard-as-of').dataset.status).toBe('fresh'));
    expect(document.querySelector('[data-note]')).toBeNull();
  });

  it('keeps the stored figures when the request fails, and asks again when the connection comes back', async () => {
    await seedCompany(CEO);
    await storeDashboard(CEO);
    device.network = 'online';
    const newer = dashboardOf({ computedAt: '2026-03-16T09:30:00.000Z', money: [{ ...dashboardOf().money[0]!, costsMinor: 60_000_000 }] });
    const outcomes: unknown[] = [new HttpError(0, null), { data: newer }];
    const get = vi.fn(() => {
      const outcome = outcomes.shift();
      return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
    });
    device.get = get;
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));

    expect(spaced((await screen.findByTestId('dashboard-costs-RUB')).textContent)).toContain('RUB 500,000.00');
    await waitFor(() => expect(document.querySelector('[data-note="failed"]')?.textContent).toContain('they may be out of date'));
    expect(spaced(screen.getByTestId('dashboard-costs-RUB').textContent)).toContain('RUB 500,000.00');
    setNetwork('offline');
    expect(document.querySelector('[data-note="offline"]')).not.toBeNull();
    expect(spaced(screen.getByTestId('dashboard-costs-RUB').textContent)).toContain('RUB 500,000.00');
    setNetwork('online');
    await waitFor(() => expect(spaced(screen.getByTestId('dashboard-costs-RUB').textContent)).toContain('RUB 600,000.00'));
    expect(dashboardRequests(get)).toHaveLength(2);
    expect(document.querySelector('[data-note]')).toBeNull();
  });

  it('asks again when the period changes, and keeps the period in the URL', async () => {
    // "This year" is the device's calendar year: the test fixes the calendar (only Date; timers run as usual).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-05-14T12:00:00'));
    await seedCompany(CEO);
    device.network = 'online';
    const get = vi.fn((_path: string, params?: Record<string, unknown>) =>
      Promise.resolve({ data: dashboardOf({ from: String(params?.from), to: String(params?.to) }) }),
    );
    device.get = get;
    const location = renderAt('/dashboard?from=2025-02-01&to=2025-02-28', userOf(CEO, 'Генеральный Геннадий', ['CEO']));
    await screen.findByTestId('dashboard-figures');
    expect(dashboardRequests(get).map(([, params]) => params)).toEqual([{ from: '2025-02-01', to: '2025-02-28', departmentId: undefined }]);

    const presets = within(screen.getByTestId('dashboard-period')).getByRole('combobox', { name: 'Period' });
    expect((presets as HTMLSelectElement).value).toBe('custom');
    await userEvent.selectOptions(presets, 'This year');
    const year = 2027;
    await waitFor(() => expect(location.history.at(-1)).toBe(`/dashboard?from=${year}-01-01&to=${year}-12-31`));
    await waitFor(() => expect(dashboardRequests(get).at(-1)?.[1]).toEqual({ from: `${year}-01-01`, to: `${year}-12-31`, departmentId: undefined }));
  });
});

describe('who sees which figures', () => {
  it('offers whole-company viewers the whole company and every department', async () => {
    await seedCompany(CEO);
    device.network = 'online';
    const get = vi.fn((_path: string, params?: Record<string, unknown>) =>
      Promise.resolve({ data: dashboardOf({ departmentId: typeof params?.departmentId === 'string' ? params.departmentId : null }) }),
    );
    device.get = get;
    const location = renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));
    await screen.findByTestId('dashboard-figures');

    const select = within(screen.getByTestId('dashboard-department')).getByRole('combobox', { name: 'Department' });
    expect(select.textContent).toBe('Whole company');
    await userEvent.click(select);
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((option) => option.textContent)).toEqual(['Whole company', 'Логистика', 'Производство', 'Склад']);
    await userEvent.click(screen.getByRole('option', { name: 'Склад' }));
    await waitFor(() => expect(location.history.at(-1)).toBe(`${YEAR}&departmentId=${WAREHOUSE}`));
    await waitFor(() => expect(dashboardRequests(get).at(-1)?.[1]).toEqual({ from: '2026-01-01', to: '2026-12-31', departmentId: WAREHOUSE }));
  });

  it('lets a head of several departments choose among theirs only, and never asks for another one', async () => {
    await seedCompany(HEAD);
    device.network = 'online';
    const get = vi.fn((_path: string, params?: Record<string, unknown>) =>
      Promise.resolve({ data: dashboardOf({ departmentId: typeof params?.departmentId === 'string' ? params.departmentId : null }) }),
    );
    device.get = get;
    renderAt(`${YEAR}&departmentId=${WAREHOUSE}`, userOf(HEAD, 'Начальников Назар', ['MIDDLE_MANAGER']));
    await screen.findByTestId('dashboard-figures');

    expect(dashboardRequests(get).map(([, params]) => params)).toEqual([{ from: '2026-01-01', to: '2026-12-31', departmentId: undefined }]);
    const select = within(screen.getByTestId('dashboard-department')).getByRole('combobox', { name: 'Department' });
    expect(select.textContent).toBe('All my departments');
    await userEvent.click(select);
    expect(within(screen.getByRole('listbox')).getAllByRole('option').map((option) => option.textContent)).toEqual(['All my departments', 'Логистика', 'Производство']);
  });

  it('shows an employee the figures of their department with no department to choose', async () => {
    await seedCompany(WORKER);
    device.network = 'online';
    const get = vi.fn(() => Promise.resolve({ data: dashboardOf({ departmentId: WAREHOUSE }) }));
    device.get = get;
    renderAt(YEAR, userOf(WORKER, 'Рабочий Роман', ['EMPLOYEE']));
    await screen.findByTestId('dashboard-figures');

    expect(screen.queryByTestId('dashboard-department')).toBeNull();
    expect(dashboardRequests(get).map(([, params]) => params)).toEqual([{ from: '2026-01-01', to: '2026-12-31', departmentId: undefined }]);
    expect(screen.queryByRole('link', { name: 'The registry of approved projects' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'EBITDA by month' })).toBeNull();
  });

  it('explains, without an error, why a member without a department sees no figures', async () => {
    await seedCompany(NEWCOMER);
    device.network = 'online';
    device.get = () => Promise.reject(new HttpError(403, { message: 'Нет доступа к дашборду' }));
    renderAt(YEAR, userOf(NEWCOMER, 'Новиков Никита', ['EMPLOYEE']));

    expect((await screen.findByTestId('dashboard-no-scope')).textContent).toContain('you are not in a department of this company yet');
    expect(screen.queryByTestId('dashboard-figures')).toBeNull();
  });

  it('tells the owner how many registries wait for their decision', async () => {
    await seedCompany(OWNER);
    await storeDashboard(OWNER);
    const db = getAppDatabase();
    await db.registries.bulkPut([
      { ...registryRow('00000000-0000-4000-8000-0000000000e1', { companyId: COMPANY }), ownerUserId: OWNER },
      { ...registryRow('00000000-0000-4000-8000-0000000000e2', { companyId: COMPANY, status: 'APPROVED', number: 2 }), ownerUserId: OWNER },
    ]);
    renderAt(YEAR, userOf(OWNER, 'Собственников Савва', ['OWNER']));

    const link = await screen.findByTestId('dashboard-registries-to-approve');
    expect(link.textContent).toBe('Registries to approve: 1');
    expect(link.getAttribute('href')).toBe(`/companies/${COMPANY}/registry-approve`);
  });

  it('keeps the setup checklist on top and shows no figures until the company is ready', async () => {
    const db = getAppDatabase();
    await db.employees.put({ ...employeeRow('e-owner', { userId: OWNER, roles: ['OWNER'], companyId: COMPANY }), ownerUserId: OWNER });
    await pulledWhole(OWNER);
    await storeDashboard(OWNER);
    renderAt(YEAR, userOf(OWNER, 'Собственников Савва', ['OWNER']));

    expect(await screen.findByText('A financial director')).toBeTruthy();
    expect(screen.queryByTestId('dashboard-figures')).toBeNull();
    expect(screen.queryByText(/What the platform will do/)).toBeNull();
  });

  it('shows its setup checklist only once the company is pulled whole, not the half-pulled company', async () => {
    const db = getAppDatabase();
    await db.employees.put({ ...employeeRow('e-owner', { userId: OWNER, roles: ['OWNER'], companyId: COMPANY }), ownerUserId: OWNER });
    await db.syncState.put({ ownerUserId: OWNER, companyId: COMPANY, cursor: '1', pulledAt: 1, caughtUpAt: null });
    renderAt(YEAR, userOf(OWNER, 'Собственников Савва', ['OWNER']));
    expect(await screen.findByText(/Hello, Собственников Савва/)).toBeTruthy();

    await act(async () => pulledWhole(OWNER));
    expect(await screen.findByText('A financial director')).toBeTruthy();
  });
});

describe('the XLSX export', () => {
  it('saves the dashboard shown as an Excel workbook named after the period', async () => {
    await seedCompany(CEO);
    await storeDashboard(CEO);
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));
    await screen.findByTestId('dashboard-figures');

    await userEvent.click(screen.getByTestId('dashboard-export'));
    await waitFor(() => expect(device.saved).toHaveLength(1));
    expect(device.saved[0]?.fileName).toBe('dashboard-2026-01-01-2026-12-31.xlsx');
    const bytes = new Uint8Array(await device.saved[0]!.blob.arrayBuffer());
    expect([...bytes.slice(0, 2)]).toEqual([0x50, 0x4b]);
  });
});

describe('the EBITDA entry', () => {
  const ROWS = [
    { month: '2026-01', currency: 'RUB', amountMinor: 1_000_000_000, updatedAt: '2026-02-05T10:00:00.000Z' },
    { month: '2025-12', currency: 'RUB', amountMinor: -35_000_050, updatedAt: '2026-01-05T10:00:00.000Z' },
  ];

  /** The financial director's device on 15 March 2026, online, the server answering the dashboard and EBITDA. */
  async function openAsFinancialDirector(put: (request: SentRequest) => Promise<unknown>) {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-15T12:00:00'));
    await seedCompany(FINDIR);
    device.network = 'online';
    const get = vi.fn((path: string) => Promise.resolve(path.endsWith('/ebitda') ? { data: ROWS } : { data: dashboardOf() }));
    device.get = get;
    device.exchange = put;
    renderAt(YEAR, userOf(FINDIR, 'Финансова Фаина', ['FINANCIAL_DIRECTOR']));
    await screen.findByTestId('dashboard-ebitda-months');
    return get;
  }

  it('lists the months entered with their values, for the financial director only', async () => {
    const get = await openAsFinancialDirector(() => Promise.reject(new Error('not sent')));
    const table = screen.getByTestId('dashboard-ebitda-months');
    expect(within(table).getAllByRole('row').map((row) => spaced(row.querySelector('th')?.textContent) + '|' + spaced(row.querySelector('td')?.textContent))).toEqual([
      'Month|',
      'January 2026|RUB 10,000,000.00',
      'December 2025|-RUB 350,000.50',
    ]);
    expect(get).toHaveBeenCalledWith(`/api/v1/companies/${COMPANY}/ebitda`, { from: '2024-04', to: '2026-03' }, { minDuration: 0 });
    cleanup();

    await seedCompany(CEO);
    await storeDashboard(CEO);
    renderAt(YEAR, userOf(CEO, 'Генеральный Геннадий', ['CEO']));
    await screen.findByTestId('dashboard-figures');
    expect(screen.queryByRole('heading', { name: 'EBITDA by month' })).toBeNull();
  });

  it('saves a month under one Idempotency-Key, then asks for the figures and the months again', async () => {
    const sent: SentRequest[] = [];
    const get = await openAsFinancialDirector((request) => {
      sent.push(request);
      return Promise.resolve({ kind: 'answer', status: 200, body: { data: { month: '2026-02', currency: 'RUB', amountMinor: -35_000_050, updatedAt: '2026-03-15T12:00:00.000Z' } }, retryAfter: null });
    });
    const dashboardsBefore = dashboardRequests(get).length;
    const ebitdaBefore = get.mock.calls.filter(([path]) => String(path).endsWith('/ebitda')).length;

    // The month offered first is the last one closed; RUB the currency.
    expect(screen.getByRole('combobox', { name: 'Month' }).textContent).toBe('February 2026');
    expect(screen.getByRole('combobox', { name: 'Currency' }).textContent).toBe('RUB');
    await userEvent.type(screen.getByRole('textbox', { name: 'EBITDA' }), '-350000.50');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('EBITDA of February 2026 saved.')).toBeTruthy();
    expect(sent).toEqual([
      { method: 'PUT', url: `/api/v1/companies/${COMPANY}/ebitda`, body: { month: '2026-02', currency: 'RUB', amountMinor: -35_000_050 }, idempotencyKey: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
    await waitFor(() => expect(dashboardRequests(get).length).toBe(dashboardsBefore + 1));
    await waitFor(() => expect(get.mock.calls.filter(([path]) => String(path).endsWith('/ebitda')).length).toBe(ebitdaBefore + 1));
  });

  it('clears a listed month with an amount of null', async () => {
    const sent: { body?: unknown }[] = [];
    await openAsFinancialDirector((request) => {
      sent.push(request);
      return Promise.resolve({ kind: 'answer', status: 200, body: { data: null }, retryAfter: null });
    });
    await userEvent.click(screen.getByRole('button', { name: 'Clear the EBITDA of December 2025, RUB' }));
    expect(await screen.findByText('EBITDA of December 2025 cleared.')).toBeTruthy();
    expect(sent.map((request) => request.body)).toEqual([{ month: '2025-12', currency: 'RUB', amountMinor: null }]);
  });

  it('shows the server\u2019s refusal of a field beside it, and refuses a malformed amount before sending', async () => {
    const put = vi.fn(() => Promise.resolve({ kind: 'answer', status: 400, body: { message: 'Invalid', errors: { amountMinor: 'Слишком много' } }, retryAfter: null }));
    await openAsFinancialDirector(put);
    const amount = screen.getByRole('textbox', { name: 'EBITDA' });
    await userEvent.type(amount, '12,345');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('At most 2 digits after the decimal point.')).toBeTruthy();
    expect(put).not.toHaveBeenCalled();

    await userEvent.clear(amount);
    await userEvent.type(amount, '100');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // Beside the field (the body's amountMinor is the form's amount), not in a dialog.
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(amount.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Слишком много');
    expect(put).toHaveBeenCalledTimes(1);
  });

  it('says plainly offline that entering EBITDA needs the connection', async () => {
    await seedCompany(FINDIR);
    await storeDashboard(FINDIR);
    renderAt(YEAR, userOf(FINDIR, 'Финансова Фаина', ['FINANCIAL_DIRECTOR']));
    await screen.findByTestId('dashboard-figures');
    expect(document.querySelector('[data-section="ebitda"] [data-offline]')?.textContent).toBe(
      'Entering EBITDA needs the connection: you are offline now. The form works again once you are back online.',
    );
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
    expect(screen.queryByTestId('dashboard-ebitda-months')).toBeNull();
  });
});
