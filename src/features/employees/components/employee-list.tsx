import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useRef, useSyncExternalStore, type MouseEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation } from 'wouter';
import { paths } from '../../../domain/paths';
import type { EmployeeEntry } from '../directory';
import { StateBadge } from './state-badge';

/** Every row has this height, so the list never measures. */
export const EMPLOYEE_ROW_HEIGHT = 68;
/** On a phone a row is taller: the name may take two lines instead of losing the patronymic to an ellipsis. */
export const EMPLOYEE_ROW_HEIGHT_NARROW = 88;
/** The phone layout's width, as in employees.css. */
const NARROW_QUERY = '(max-width: 639px)';

function subscribeToNarrow(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isNarrowNow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}
/** Rows rendered beyond the visible ones on each side, so a quick scroll does not show blanks. */
const OVERSCAN = 8;

export interface EmployeeListProps {
  companyId: string;
  entries: readonly EmployeeEntry[];
  canManage: boolean;
}

/**
 * The employees as a windowed list (@tanstack/react-virtual): only the rows in view (and a few around them)
 * are in the page, so 10,000 people scroll like 20. Rows have one fixed height (taller on a phone); long texts are cut with an
 * ellipsis and shown whole on the employee's page.
 */
export function EmployeeList({ companyId, entries, canManage }: EmployeeListProps) {
  const intl = useIntl();
  const [, navigate] = useLocation();
  const scrollRef = useRef<HTMLDivElement>(null);
  // Stable while the entries are: the virtualizer recomputes every row's position when this changes.
  const getItemKey = useCallback((index: number) => entries[index]?.employee.id ?? index, [entries]);
  const isNarrow = useSyncExternalStore(subscribeToNarrow, isNarrowNow, () => false);
  const rowHeight = isNarrow ? EMPLOYEE_ROW_HEIGHT_NARROW : EMPLOYEE_ROW_HEIGHT;
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  // Rows hold plain links (a router link per row costs a subscription each, made and dropped on every
  // scrolled frame); one listener here turns a plain left click into an in-app navigation.
  const onClick = useCallback(
    (event: MouseEvent<HTMLUListElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-nav]') : null;
      if (!link) return;
      event.preventDefault();
      navigate(link.getAttribute('href') ?? '');
    },
    [navigate],
  );
  // The virtualizer keeps its own mutable state; React Compiler does not memoize around it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
  });
  // A turned phone or a resized window changes the row height: every row's position is computed anew.
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);

  return (
    <div
      className="employee-list"
      ref={scrollRef}
      data-employee-list=""
      tabIndex={0}
      role="region"
      aria-label={intl.formatMessage({ id: 'employees.list.region', defaultMessage: 'Employees, {count, plural, one {# person} other {# people}}' }, { count: entries.length })}
    >
      {/* The click listener only upgrades the links' own navigation (Enter on a link is a click too). */}
      <ul className="employee-list__inner" style={{ height: virtualizer.getTotalSize() }} onClick={onClick}>
        {virtualizer.getVirtualItems().map((item) => {
          const entry = entries[item.index];
          if (!entry) return null;
          return <EmployeeRow key={item.key} companyId={companyId} entry={entry} top={item.start} height={rowHeight} position={item.index + 1} size={entries.length} canManage={canManage} />;
        })}
      </ul>
    </div>
  );
}

interface EmployeeRowProps {
  companyId: string;
  entry: EmployeeEntry;
  top: number;
  height: number;
  position: number;
  size: number;
  canManage: boolean;
}

const EmployeeRow = memo(function EmployeeRow({ companyId, entry, top, height, position, size, canManage }: EmployeeRowProps) {
  const intl = useIntl();
  const { employee, fullName, departmentName, state } = entry;
  const meta = [employee.position, departmentName].filter((part): part is string => part !== null && part !== '').join(' · ');
  return (
    <li className="employee-row" style={{ height, transform: `translateY(${top}px)` }} aria-posinset={position} aria-setsize={size} data-employee-row={employee.id}>
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
