import { useSyncExternalStore } from 'react';
import { FormattedMessage } from 'react-intl';
import { Button } from '../../../ui/button';
import { lazyModule, useLazyModule } from '../../../ui/lazy-module';
import { EMPLOYEE_ROW_ESTIMATE_NARROW, EMPLOYEE_ROW_HEIGHT, EmployeeRow, useRegionLabel, useRowClick, type EmployeeListProps } from './employee-rows';
import './employee-list.css';

export type { EmployeeListProps } from './employee-rows';

/** The phone layout's width, as in employees.css. */
const NARROW_QUERY = '(max-width: 639px)';
/**
 * Lists up to this long are in the page whole, without a window; longer ones are windowed by
 * @tanstack/react-virtual (employee-list-virtual.tsx, 10 KB gzipped), loaded only for them.
 */
export const PLAIN_LIST_UP_TO = 100;
/** The first rows of a long list shown while the windowed list loads (fewer than the window holds). */
const FIRST_ROWS = 40;

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

// The windowed lists (employee-list-virtual.tsx, with @tanstack/react-virtual) are fetched for the first long list.
const virtualLists = lazyModule(() => import('./employee-list-virtual'));
if (!import.meta.env.PROD) await virtualLists.load();

/**
 * The employees list. A short one (up to PLAIN_LIST_UP_TO people, most companies) is simply in the page; a long
 * one is windowed, and until the windowed list has loaded its first rows show in the same places, in a list
 * already as tall as the whole one will be, so nothing moves when it arrives. On a phone the page scrolls; on
 * a wider screen the list is a box of fixed-height rows.
 */
export function EmployeeList(props: EmployeeListProps) {
  const isNarrow = useIsNarrowScreen();
  const isLong = props.entries.length > PLAIN_LIST_UP_TO;
  const { value: lists, retry } = useLazyModule(virtualLists, isLong, 'The employees list');
  if (isLong && lists !== null && lists !== 'failed') {
    return isNarrow ? <lists.PageScrolledList {...props} /> : <lists.BoxScrolledList {...props} />;
  }
  return <PlainList {...props} isNarrow={isNarrow} shown={isLong ? FIRST_ROWS : props.entries.length} onRetry={lists === 'failed' ? retry : null} />;
}

interface PlainListProps extends EmployeeListProps {
  isNarrow: boolean;
  /** How many of the entries are in the page (the first ones). */
  shown: number;
  /** Set when the windowed list could not be loaded: the rest of the list is then offered again. */
  onRetry: (() => void) | null;
}

/** The first `shown` entries in the list's flow, in a list as tall as all the entries will make it. */
function PlainList({ companyId, entries, canManage, isNarrow, shown, onRetry }: PlainListProps) {
  const onClick = useRowClick();
  const label = useRegionLabel(entries.length);
  const rows = entries.slice(0, shown);
  const reservedHeight = shown < entries.length ? entries.length * (isNarrow ? EMPLOYEE_ROW_ESTIMATE_NARROW : EMPLOYEE_ROW_HEIGHT) : undefined;
  const scroll = isNarrow ? 'page' : 'box';
  return (
    <>
      {onRetry !== null && (
        <div className="employee-list__failed">
          <p role="alert">
            <FormattedMessage
              id="employees.list.loadFailed"
              defaultMessage="Only the first {shown, number} of {count, number} employees are shown: the rest of the list could not be loaded. Check the connection and try again."
              values={{ shown, count: entries.length }}
            />
          </p>
          <Button variant="secondary" onClick={onRetry}>
            <FormattedMessage id="employees.list.retry" defaultMessage="Try again" />
          </Button>
        </div>
      )}
      <div
        className={`employee-list employee-list--${scroll} employee-list--plain`}
        data-employee-list=""
        data-scroll={scroll}
        // A scrollable region is reached with the keyboard, so it takes focus (WCAG 2.1.1).
        tabIndex={isNarrow ? undefined : 0}
        role="region"
        aria-label={label}
        aria-busy={shown < entries.length && onRetry === null ? true : undefined}
      >
        <ul className="employee-list__inner" style={{ minHeight: reservedHeight }} onClick={onClick}>
          {rows.map((entry, index) => (
            <EmployeeRow
              key={entry.employee.id}
              companyId={companyId}
              entry={entry}
              index={index}
              top={null}
              height={isNarrow ? undefined : EMPLOYEE_ROW_HEIGHT}
              measure={undefined}
              size={entries.length}
              canManage={canManage}
            />
          ))}
        </ul>
      </div>
    </>
  );
}
