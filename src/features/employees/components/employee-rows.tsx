// One employee's row and what the employees list's two renderings share: the plain list of a short company (and
// of a long one's first rows while the windowed list loads, employee-list.tsx) and the windowed list
// (employee-list-virtual.tsx).
import { memo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useRowNavigation } from '../../../ui/row-navigation';
import { paths } from '../../../domain/paths';
import type { EmployeeEntry } from '../directory';
import { StateBadge } from './state-badge';

/** Every row of the boxed list (tablets and wider) has this height, so that list never measures. */
export const EMPLOYEE_ROW_HEIGHT = 68;
/**
 * A phone's first guess at a row's height: there the name, the position and the department wrap instead of
 * being cut, so each row is measured once it is in the page.
 */
export const EMPLOYEE_ROW_ESTIMATE_NARROW = 112;

export interface EmployeeListProps {
  companyId: string;
  entries: readonly EmployeeEntry[];
  canManage: boolean;
}

/** The label of the list's region, with the number of people in it. */
export function useRegionLabel(count: number): string {
  return useIntl().formatMessage({ id: 'employees.list.region', defaultMessage: 'Employees, {count, plural, one {# person} other {# people}}' }, { count });
}

/** The list's click listener: rows hold plain links, one listener navigates (src/ui/row-navigation.ts). */
export function useRowClick() {
  return useRowNavigation(null);
}

export interface EmployeeRowProps {
  companyId: string;
  entry: EmployeeEntry;
  index: number;
  /** Where the windowed list places the row; null: the row is in the list's flow (the plain list). */
  top: number | null;
  height: number | undefined;
  measure: ((element: HTMLLIElement | null) => void) | undefined;
  size: number;
  canManage: boolean;
}

export const EmployeeRow = memo(function EmployeeRow({ companyId, entry, index, top, height, measure, size, canManage }: EmployeeRowProps) {
  const intl = useIntl();
  const { employee, fullName, departmentName, state } = entry;
  const meta = [employee.position, departmentName].filter((part): part is string => part !== null && part !== '').join(' · ');
  return (
    <li
      className={canManage ? 'employee-row employee-row--editable' : 'employee-row'}
      ref={measure}
      data-index={index}
      style={{ height, transform: top === null ? undefined : `translateY(${top}px)` }}
      aria-posinset={index + 1}
      aria-setsize={size}
      data-employee-row={employee.id}
    >
      <a href={paths.company.employee(companyId, employee.id)} className="employee-row__main" data-nav="">
        <span className="employee-row__name">{fullName}</span>
        <span className="employee-row__meta">
          <StateBadge state={state} />
          {meta !== '' && <span className="employee-row__details">{meta}</span>}
        </span>
      </a>
      {canManage && (
        <a
          href={`${paths.company.employeesEdit(companyId)}?employeeId=${encodeURIComponent(employee.id)}`}
          className="employee-row__edit"
          data-nav=""
          aria-label={intl.formatMessage({ id: 'employees.list.editNamed', defaultMessage: 'Edit: {name}' }, { name: fullName })}
        >
          <FormattedMessage id="employees.list.edit" defaultMessage="Edit" />
        </a>
      )}
    </li>
  );
});
