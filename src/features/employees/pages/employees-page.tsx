import { useEffect, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { EMPLOYEE_STATES, type EmployeeState } from '../../../domain/company';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { Select } from '../../../ui/select';
import { PageSpinner } from '../../../ui/spinner';
import { TextField } from '../../../ui/text-field';
import { EmployeeList, useIsNarrowScreen } from '../components/employee-list';
import { PendingInvitations } from '../components/pending-invitations';
import { STATE_MESSAGES } from '../components/state-badge';
import { NO_DEPARTMENT, type EmployeeFilter } from '../directory';
import { useCanManagePeople, useEmployeeList, useIsOnline } from '../hooks';
import '../employees.css';

/** The search applies this long after the last keystroke, so typing stays fluid with 10,000 people. */
export const SEARCH_DELAY_MS = 200;

function useDebounced<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}

const ALL = '';

export default function EmployeesPage() {
  const intl = useIntl();
  const { companyId = '' } = useParams<{ companyId: string }>();
  const initialDepartment = new URLSearchParams(useSearch()).get('departmentId') ?? ALL;
  const canManage = useCanManagePeople(companyId);
  const isOnline = useIsOnline();
  // On a phone the page scrolls through the whole list: the pending invitations come before it, not after
  // thousands of rows.
  const isNarrow = useIsNarrowScreen();

  const [searchText, setSearchText] = useState('');
  const [departmentId, setDepartmentId] = useState(initialDepartment);
  const [state, setState] = useState<EmployeeState | ''>(ALL);
  const search = useDebounced(searchText, SEARCH_DELAY_MS);
  const filter: EmployeeFilter = useMemo(() => ({ search, departmentId, state }), [search, departmentId, state]);
  const list = useEmployeeList(companyId, filter);

  const departmentOptions = useMemo(
    () => [
      { id: NO_DEPARTMENT, title: intl.formatMessage({ id: 'employees.filter.noDepartment', defaultMessage: 'Without a department' }) },
      ...(list?.departments ?? []).map((department) => ({ id: department.id, title: department.name })),
    ],
    [list?.departments, intl],
  );
  const stateOptions = useMemo(() => EMPLOYEE_STATES.map((id) => ({ id, title: intl.formatMessage(STATE_MESSAGES[id]) })), [intl]);

  if (list === undefined) return <PageSpinner />;
  const isFiltered = list.visible.length !== list.entries.length;

  return (
    <section className="people-page" aria-labelledby="employees-title">
      <p className="people-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <div className="people-page__head">
        <h1 className="people-page__title" id="employees-title">
          <FormattedMessage id="employees.list.title" defaultMessage="Employees" />
        </h1>
        {canManage && (
          <div className="people-page__actions">
            <Link href={paths.company.employeesEdit(companyId)} className={buttonClassName('primary')} data-action="add-employee">
              <FormattedMessage id="employees.list.add" defaultMessage="Add" />
            </Link>
            <Link href={paths.company.employeesImport(companyId)} className={buttonClassName('secondary')} data-action="import-employees">
              <FormattedMessage id="employees.list.import" defaultMessage="Import" />
            </Link>
          </div>
        )}
      </div>
      <p className="people-page__links">
        <Link href={paths.company.departments(companyId)}>
          <FormattedMessage id="employees.list.toDepartments" defaultMessage="Departments and structure" />
        </Link>
      </p>
      {canManage && !isOnline && (
        <p className="people-note people-note--warning" data-offline="">
          <FormattedMessage
            id="employees.list.offline"
            defaultMessage="You are offline: the list is the copy on this device. Adding, editing and inviting need a connection."
          />
        </p>
      )}

      {canManage && isNarrow && <PendingInvitations companyId={companyId} />}

      <div className="people-filters" role="search">
        <TextField
          label={intl.formatMessage({ id: 'employees.filter.search', defaultMessage: 'Search' })}
          name="search"
          type="search"
          value={searchText}
          onChange={setSearchText}
          inputMode="search"
          placeholder={intl.formatMessage({ id: 'employees.filter.searchPlaceholder', defaultMessage: 'Name, position, e-mail or number' })}
        />
        <Select
          label={intl.formatMessage({ id: 'employees.filter.department', defaultMessage: 'Department' })}
          name="departmentId"
          value={departmentId}
          onChange={setDepartmentId}
          options={departmentOptions}
          placeholder={intl.formatMessage({ id: 'employees.filter.allDepartments', defaultMessage: 'All departments' })}
          searchable={departmentOptions.length > 8}
        />
        <Select
          label={intl.formatMessage({ id: 'employees.filter.state', defaultMessage: 'State' })}
          name="state"
          value={state}
          onChange={(value) => setState((EMPLOYEE_STATES as readonly string[]).includes(value) ? (value as EmployeeState) : ALL)}
          options={stateOptions}
          placeholder={intl.formatMessage({ id: 'employees.filter.allStates', defaultMessage: 'Any state' })}
        />
      </div>

      <p className="people-page__count" aria-live="polite" data-count={list.visible.length} data-total={list.entries.length}>
        {isFiltered ? (
          <FormattedMessage
            id="employees.list.countFiltered"
            defaultMessage="Found {shown, number} of {total, plural, one {# employee} other {# employees}}"
            values={{ shown: list.visible.length, total: list.entries.length }}
          />
        ) : (
          <FormattedMessage
            id="employees.list.count"
            defaultMessage="{total, plural, one {# employee} other {# employees}}"
            values={{ total: list.entries.length }}
          />
        )}
      </p>

      {list.entries.length === 0 ? (
        <p className="people-note">
          <FormattedMessage
            id="employees.list.empty"
            defaultMessage="No employees on this device yet. Add them one by one or import a file; if they exist already, connect once so the list can load."
          />
        </p>
      ) : list.visible.length === 0 ? (
        <p className="people-note">
          <FormattedMessage id="employees.list.nothingFound" defaultMessage="Nobody matches the search and filters." />
        </p>
      ) : (
        <EmployeeList companyId={companyId} entries={list.visible} canManage={canManage} />
      )}

      {canManage && !isNarrow && <PendingInvitations companyId={companyId} />}
    </section>
  );
}
