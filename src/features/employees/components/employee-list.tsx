import { useVirtualizer, useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { memo, useCallback, useLayoutEffect, useRef, useState, useSyncExternalStore, type MouseEvent, type RefObject } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useLocation } from 'wouter';
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
/** The phone layout's width, as in employees.css. */
const NARROW_QUERY = '(max-width: 639px)';
/** Rows rendered beyond the visible ones on each side, so a quick scroll does not show blanks. */
const OVERSCAN = 8;
// Module-level, so the virtualizer is handed the same functions on every render.
const estimateFixed = () => EMPLOYEE_ROW_HEIGHT;
const estimateNarrow = () => EMPLOYEE_ROW_ESTIMATE_NARROW;

function subscribeToNarrow(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isNarrowNow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}

/** True on a phone-wide screen (the layout of employees.css below 640 px); follows a turned phone. */
export function useIsNarrowScreen(): boolean {
  return useSyncExternalStore(subscribeToNarrow, isNarrowNow, () => false);
}

export interface EmployeeListProps {
  companyId: string;
  entries: readonly EmployeeEntry[];
  canManage: boolean;
}

/**
 * The employees as a windowed list (@tanstack/react-virtual): only the rows in view (and a few around them)
 * are in the page, so 10,000 people scroll like 20. On a phone the page itself scrolls (a box of its own
 * would leave five rows between the filters and the screen's edge) and rows grow to fit their texts; on a
 * wider screen the list is a box of fixed-height rows beside which the filters stay in view.
 */
export function EmployeeList(props: EmployeeListProps) {
  return useIsNarrowScreen() ? <PageScrolledList {...props} /> : <BoxScrolledList {...props} />;
}

/** The label of the list's region, with the number of people in it. */
function useRegionLabel(count: number): string {
  return useIntl().formatMessage({ id: 'employees.list.region', defaultMessage: 'Employees, {count, plural, one {# person} other {# people}}' }, { count });
}

/**
 * Rows hold plain links (a router link per row costs a subscription each, made and dropped on every scrolled
 * frame); one listener on the list turns a plain left click into an in-app navigation. Enter on a link is a
 * click too.
 */
function useRowClick() {
  const [, navigate] = useLocation();
  return useCallback(
    (event: MouseEvent<HTMLUListElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-nav]') : null;
      if (!link) return;
      event.preventDefault();
      navigate(link.getAttribute('href') ?? '');
    },
    [navigate],
  );
}

/**
 * Where `ref`'s element starts, in pixels from the top of the document: the page-scrolled list's rows are
 * placed from there. Kept up to date while what is above it (a note, filters that wrap, the app's header)
 * changes height; the observer also reports the first size as soon as it starts.
 */
function useDocumentTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const node = ref.current;
    if (!node || typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(() => setTop(Math.round(node.getBoundingClientRect().top + window.scrollY)));
    observer.observe(document.body);
    if (node.parentElement) observer.observe(node.parentElement);
    return () => observer.disconnect();
  }, [ref]);
  return top;
}

/** The phone's list: the window scrolls, rows are measured as they come into the page. */
function PageScrolledList({ companyId, entries, canManage }: EmployeeListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const scrollMargin = useDocumentTop(listRef);
  const onClick = useRowClick();
  const label = useRegionLabel(entries.length);
  // Stable while the entries are: the virtualizer recomputes every row's position when this changes.
  const getItemKey = useCallback((index: number) => entries[index]?.employee.id ?? index, [entries]);
  const virtualizer = useWindowVirtualizer({
    count: entries.length,
    estimateSize: estimateNarrow,
    overscan: OVERSCAN,
    getItemKey,
    scrollMargin,
  });

  return (
    <div className="employee-list employee-list--page" ref={listRef} data-employee-list="" data-scroll="page" role="region" aria-label={label}>
      <ul className="employee-list__inner" style={{ height: virtualizer.getTotalSize() }} onClick={onClick}>
        {virtualizer.getVirtualItems().map((item) => (
          <Row key={item.key} item={item} offset={scrollMargin} entries={entries} companyId={companyId} canManage={canManage} measure={virtualizer.measureElement} />
        ))}
      </ul>
    </div>
  );
}

/** The wider screens' list: a scroll box of its own with fixed-height rows (never measured). */
function BoxScrolledList({ companyId, entries, canManage }: EmployeeListProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const onClick = useRowClick();
  const label = useRegionLabel(entries.length);
  const getItemKey = useCallback((index: number) => entries[index]?.employee.id ?? index, [entries]);
  // The virtualizer keeps its own mutable state; React Compiler does not memoize around it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: estimateFixed,
    overscan: OVERSCAN,
    getItemKey,
  });

  return (
    // A scrollable region is reached with the keyboard, so it takes focus (WCAG 2.1.1).
    <div className="employee-list employee-list--box" ref={scrollRef} data-employee-list="" data-scroll="box" tabIndex={0} role="region" aria-label={label}>
      <ul className="employee-list__inner" style={{ height: virtualizer.getTotalSize() }} onClick={onClick}>
        {virtualizer.getVirtualItems().map((item) => (
          <Row key={item.key} item={item} offset={0} entries={entries} companyId={companyId} canManage={canManage} height={EMPLOYEE_ROW_HEIGHT} />
        ))}
      </ul>
    </div>
  );
}

interface RowProps {
  item: VirtualItem;
  /** Subtracted from the item's start: the page-scrolled list's distance from the top of the document. */
  offset: number;
  entries: readonly EmployeeEntry[];
  companyId: string;
  canManage: boolean;
  /** A fixed height (the boxed list), or none: the row is as tall as its texts and `measure` reads it. */
  height?: number;
  measure?: (element: HTMLLIElement | null) => void;
}

function Row({ item, offset, entries, companyId, canManage, height, measure }: RowProps) {
  const entry = entries[item.index];
  if (!entry) return null;
  return (
    <EmployeeRow
      companyId={companyId}
      entry={entry}
      index={item.index}
      top={item.start - offset}
      height={height}
      measure={measure}
      size={entries.length}
      canManage={canManage}
    />
  );
}

interface EmployeeRowProps {
  companyId: string;
  entry: EmployeeEntry;
  index: number;
  top: number;
  height: number | undefined;
  measure: ((element: HTMLLIElement | null) => void) | undefined;
  size: number;
  canManage: boolean;
}

const EmployeeRow = memo(function EmployeeRow({ companyId, entry, index, top, height, measure, size, canManage }: EmployeeRowProps) {
  const intl = useIntl();
  const { employee, fullName, departmentName, state } = entry;
  const meta = [employee.position, departmentName].filter((part): part is string => part !== null && part !== '').join(' · ');
  return (
    <li
      className={canManage ? 'employee-row employee-row--editable' : 'employee-row'}
      ref={measure}
      data-index={index}
      style={{ height, transform: `translateY(${top}px)` }}
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
