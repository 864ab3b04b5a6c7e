import { act, cleanup, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { Link, Route, Router, useLocation } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import type { CurrentUser } from '../../../domain/user';
import { AppStateProvider } from '../../../lib/app-state';
import type { Connectivity, ConnectivityState } from '../../../lib/connectivity';
import { DialogProvider } from '../../../ui/dialog';
import EmployeesImportPage from '../pages/employees-import-page';
import { useImportAccess, useImportFlow, useImportReport, useLeaveGuard, type ImportDeps } from './import-hooks';
import { ImportRequestError, recallReport, type ImportApi } from './import-store';
import { samplePreview, sampleReport } from './test-samples';

const user: CurrentUser = {
  id: 'u1',
  email: 'hr@demo.local',
  telephone: null,
  hrInviterData: null,
  department: null,
  company: null,
  fullName: 'Кадрова Ольга',
  firstName: 'Ольга',
  lastName: 'Кадрова',
  middleName: null,
  position: null,
  otherPosition: null,
  mainGoal: null,
  role: 'HR',
  email_verified_at: '2026-01-01T00:00:00Z',
  active: true,
  username: 'hr@demo.local',
  authorities: [{ authority: 'ROLE_HR' }],
  emailVerified: true,
  accountNonExpired: true,
  accountNonLocked: true,
  credentialsNonExpired: true,
  enabled: true,
  locale: 'en',
  companies: [
    { id: 'c1', name: 'Демо Завод', roles: ['HR'] },
    { id: 'c2', name: 'Другая', roles: ['EMPLOYEE'] },
  ],
};

/** Connectivity the test switches by hand. */
function fakeConnectivity(initial: ConnectivityState): Connectivity & { set(state: ConnectivityState): void } {
  let state = initial;
  const listeners = new Set<(state: ConnectivityState) => void>();
  return {
    get: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    probe: () => Promise.resolve(state),
    start: () => undefined,
    stop: () => undefined,
    set(next) {
      state = next;
      for (const listener of listeners) listener(state);
    },
  };
}

function fakeApi(overrides: Partial<ImportApi> = {}) {
  return {
    preview: vi.fn<ImportApi['preview']>(() => Promise.resolve(samplePreview)),
    run: vi.fn<ImportApi['run']>(() => Promise.resolve(sampleReport)),
    report: vi.fn<ImportApi['report']>(() => Promise.resolve(sampleReport)),
    template: vi.fn<ImportApi['template']>(() => Promise.reject(new Error('not in this test'))),
    ...overrides,
  };
}

function wrapper({ children }: { children: ReactNode }) {
  return (
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>
        <AppStateProvider user={user} config={{ units: [], enums: {}, supportLink: '' }} reloadUser={() => Promise.resolve()}>
          {children}
        </AppStateProvider>
      </DialogProvider>
    </IntlProvider>
  );
}

const csv = (name = 'staff.csv', content = 'Фамилия;Имя\nИванов;Иван\n') => new File([content], name, { type: 'text/csv' });

/** `deps` made once, outside the render, as the app's are. */
function renderFlow(deps: ImportDeps) {
  return renderHook(() => useImportFlow('c1', deps), { wrapper });
}

beforeEach(() => sessionStorage.clear());
afterEach(cleanup);

describe('who may import', () => {
  it('lets people managers of the company in, and nobody else', () => {
    const { result } = renderHook(() => [useImportAccess('c1'), useImportAccess('c2'), useImportAccess('c9')], { wrapper });
    expect(result.current).toEqual([
      { isMember: true, canImport: true },
      { isMember: true, canImport: false },
      { isMember: false, canImport: false },
    ]);
  });
});

describe('the import flow', () => {
  it('reads a chosen file at once and starts from the detected mapping', async () => {
    const api = fakeApi();
    const { result } = renderFlow({ api, connectivity: fakeConnectivity('online'), pull: () => Promise.resolve() });
    const file = csv();
    act(() => result.current.choose(file));
    await waitFor(() => expect(result.current.preview).toEqual(samplePreview));
    expect(api.preview).toHaveBeenCalledWith('c1', expect.objectContaining({ file }));
    expect(result.current.mapping).toEqual(['lastName', 'firstName', 'serviceNumber', null]);
    expect(result.current.busy).toBeNull();
  });

  it('imports with the user’s mapping, keeps the report for this tab and pulls the new employees', async () => {
    const api = fakeApi();
    const pull = vi.fn(() => Promise.resolve());
    const { result } = renderFlow({ api, connectivity: fakeConnectivity('online'), pull });
    act(() => result.current.choose(csv()));
    await waitFor(() => expect(result.current.preview).not.toBeNull());
    act(() => result.current.setColumnField(3, 'position'));
    let report: unknown;
    await act(async () => {
      report = await result.current.runImport();
    });
    expect(report).toEqual(sampleReport);
    expect(api.run).toHaveBeenCalledWith('c1', expect.objectContaining({ mapping: ['lastName', 'firstName', 'serviceNumber', 'position'], idempotencyKey: expect.any(String) }));
    expect(pull).toHaveBeenCalledWith('u1', 'c1');
    expect(recallReport(sessionStorage, 'u1', 'c1', 'imp-1')).toEqual({ report: sampleReport, headers: ['Фамилия', 'Имя', 'Табельный №', 'Комментарий'] });
  });

  it('does not import while a required field has no column', async () => {
    const api = fakeApi();
    const { result } = renderFlow({ api, connectivity: fakeConnectivity('online'), pull: () => Promise.resolve() });
    act(() => result.current.choose(csv()));
    await waitFor(() => expect(result.current.preview).not.toBeNull());
    act(() => result.current.setColumnField(1, null));
    await act(async () => {
      expect(await result.current.runImport()).toBeNull();
    });
    expect(api.run).not.toHaveBeenCalled();
  });

  it('offline keeps the chosen file, sends nothing, and reads it once the connection is back', async () => {
    const api = fakeApi();
    const connectivity = fakeConnectivity('offline');
    const { result } = renderFlow({ api, connectivity, pull: () => Promise.resolve() });
    const file = csv();
    act(() => result.current.choose(file));
    expect(result.current.isOffline).toBe(true);
    expect(result.current.file).toBe(file);
    expect(api.preview).not.toHaveBeenCalled();
    act(() => connectivity.set('online'));
    await waitFor(() => expect(result.current.preview).toEqual(samplePreview));
    expect(result.current.file).toBe(file);
  });

  it('shows the server’s refusal in the user’s language and keeps the file', async () => {
    const api = fakeApi({ preview: vi.fn(() => Promise.reject(new ImportRequestError(400, 'The file has more than 20,000 rows.'))) });
    const { result } = renderFlow({ api, connectivity: fakeConnectivity('online'), pull: () => Promise.resolve() });
    const file = csv();
    act(() => result.current.choose(file));
    await waitFor(() => expect(result.current.problem).toBe('The file has more than 20,000 rows.'));
    expect(result.current.file).toBe(file);
    expect(result.current.preview).toBeNull();
    // Sending the same file again cannot help: no "try again" then.
    expect(result.current.isRetryable).toBe(false);
  });

  it('says what a refusal without a message means by its status', async () => {
    const api = fakeApi({ preview: vi.fn(() => Promise.reject(new ImportRequestError(413, null))) });
    const { result } = renderFlow({ api, connectivity: fakeConnectivity('online'), pull: () => Promise.resolve() });
    act(() => result.current.choose(csv()));
    await waitFor(() => expect(result.current.problem).toBe('The file is larger than 5 MB. Split it into smaller files.'));
  });

  it('refuses other files and oversized ones on the device, without sending them', () => {
    const api = fakeApi();
    const { result } = renderFlow({ api, connectivity: fakeConnectivity('online'), pull: () => Promise.resolve() });
    act(() => result.current.choose(new File(['x'], 'photo.png', { type: 'image/png' })));
    expect(result.current.problem).toBe('Choose a CSV or XLSX file.');
    act(() => result.current.choose(new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'huge.xlsx')));
    expect(result.current.problem).toBe('The file is larger than 5 MB. Split it into smaller files.');
    expect(api.preview).not.toHaveBeenCalled();
  });

  it('sends a retry of an unanswered import with the same Idempotency-Key, so it cannot import twice', async () => {
    const run = vi.fn<ImportApi['run']>().mockRejectedValueOnce(new ImportRequestError(0, null)).mockResolvedValueOnce(sampleReport);
    const api = fakeApi({ run });
    const { result } = renderFlow({ api, connectivity: fakeConnectivity('online'), pull: () => Promise.resolve() });
    act(() => result.current.choose(csv()));
    await waitFor(() => expect(result.current.preview).not.toBeNull());
    await act(async () => {
      expect(await result.current.runImport()).toBeNull();
    });
    expect(result.current.problem).toBe('The server did not answer. Your file is still chosen: try again once you are back online.');
    expect(result.current.isRetryable).toBe(true);
    await act(async () => {
      expect(await result.current.runImport()).toEqual(sampleReport);
    });
    const keys = run.mock.calls.map(([, upload]) => upload.idempotencyKey);
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).toBe(keys[0]);
  });
});

describe('the report page’s data', () => {
  it('shows the report kept by this tab without asking the server, offline too', () => {
    const api = fakeApi();
    sessionStorage.setItem('employeeImportReport:u1:c1', JSON.stringify({ report: sampleReport, headers: null }));
    const deps = { api, connectivity: fakeConnectivity('offline') };
    const { result } = renderHook(() => useImportReport('c1', 'imp-1', deps), { wrapper });
    expect(result.current).toEqual({ kind: 'ready', report: sampleReport, headers: null });
    expect(api.report).not.toHaveBeenCalled();
  });

  it('asks the server for a report this tab does not hold, and keeps it', async () => {
    const api = fakeApi();
    const deps = { api, connectivity: fakeConnectivity('online') };
    const { result } = renderHook(() => useImportReport('c1', 'imp-1', deps), { wrapper });
    await waitFor(() => expect(result.current.kind).toBe('ready'));
    expect(api.report).toHaveBeenCalledWith('c1', 'imp-1');
    expect(recallReport(sessionStorage, 'u1', 'c1', 'imp-1')?.report).toEqual(sampleReport);
  });

  it('says so when the report is neither kept nor reachable', () => {
    const deps = { api: fakeApi(), connectivity: fakeConnectivity('offline') };
    const { result } = renderHook(() => useImportReport('c1', 'imp-1', deps), { wrapper });
    expect(result.current.kind).toBe('offline');
  });

  it('names an unknown import as not found', async () => {
    const api = fakeApi({ report: vi.fn(() => Promise.reject(new ImportRequestError(404, 'Not found'))) });
    const deps = { api, connectivity: fakeConnectivity('online') };
    const { result } = renderHook(() => useImportReport('c1', 'imp-9', deps), { wrapper });
    await waitFor(() => expect(result.current).toEqual({ kind: 'failed', message: 'There is no such import in this company.' }));
  });
});

describe('leaving while the import runs', () => {
  function Guarded({ isActive }: { isActive: boolean }) {
    useLeaveGuard(isActive);
    const [location] = useLocation();
    return (
      <>
        <p data-testid="location">{location}</p>
        <Link href="/companies/c1/employees">Employees</Link>
      </>
    );
  }

  function renderGuarded(isActive: boolean) {
    const { hook } = memoryLocation({ path: '/companies/c1/employees/import' });
    return render(
      <Router hook={hook}>
        <Guarded isActive={isActive} />
      </Router>,
      { wrapper },
    );
  }

  it('asks before following a link, and stays when the user says so', async () => {
    const user = userEvent.setup();
    renderGuarded(true);
    await user.click(screen.getByRole('link', { name: 'Employees' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Leave while the import runs?');
    await user.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByTestId('location').textContent).toBe('/companies/c1/employees/import');
  });

  it('follows the link once the user confirms', async () => {
    const user = userEvent.setup();
    renderGuarded(true);
    await user.click(screen.getByRole('link', { name: 'Employees' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/companies/c1/employees'));
  });

  it('has the browser ask before a reload or close, only while active', () => {
    const { rerender } = renderGuarded(true);
    const first = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(first);
    expect(first.defaultPrevented).toBe(true);
    rerender(<Router hook={memoryLocation({ path: '/x' }).hook}><Guarded isActive={false} /></Router>);
    const second = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(second);
    expect(second.defaultPrevented).toBe(false);
  });

  it('lets links be followed at once when nothing runs', async () => {
    const user = userEvent.setup();
    renderGuarded(false);
    await user.click(screen.getByRole('link', { name: 'Employees' }));
    expect(screen.getByTestId('location').textContent).toBe('/companies/c1/employees');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the import page for someone who may not import', () => {
  function renderPage(companyId: string) {
    const { hook } = memoryLocation({ path: `/companies/${companyId}/employees/import` });
    return render(
      <Router hook={hook}>
        <Route path="/companies/:companyId/employees/import" component={EmployeesImportPage} />
      </Router>,
      { wrapper },
    );
  }

  it('tells a member without the HR, owner or CEO role who can import, and shows no form', () => {
    const { container } = renderPage('c2');
    expect(screen.getByRole('alert').textContent).toContain('Only HR, the owner and the CEO of the company can import employees.');
    expect(container.querySelector('input[type="file"]')).toBeNull();
  });

  it('tells someone outside the company that it is not theirs', () => {
    renderPage('c9');
    expect(screen.getByRole('alert').textContent).toBe('You are not a member of this company, so you cannot import its employees.');
  });
});
