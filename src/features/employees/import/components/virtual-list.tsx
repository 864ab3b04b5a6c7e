import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Button } from '../../../../ui/button';
import { lazyModule, useLazyModule } from '../../../../ui/lazy-module';

/** Lists up to this long render whole; longer ones (an import can report 20,000 rows) render what is on screen. */
export const VIRTUALIZE_FROM = 100;
/** The first items of a long list shown while its windowed list loads. */
const FIRST_ITEMS = 40;

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string | number;
  renderItem: (item: T) => ReactNode;
  /** The list's accessible name. */
  label: string;
  /** A first guess of an item's height in px; each item is measured once shown. */
  estimateSize?: number;
  className?: string;
}

// The windowed list (virtual-list-long.tsx, with @tanstack/react-virtual) is fetched for the first long list only,
// so a report of a few rows never downloads it. A failed fetch is tried again on "Try again".
const longLists = lazyModule(() => import('./virtual-list-long'));
if (!import.meta.env.PROD) await longLists.load();

/** A list of report rows: plain when short, virtualized inside its own scroll box when long. */
export function VirtualList<T>(props: VirtualListProps<T>) {
  const isLong = props.items.length > VIRTUALIZE_FROM;
  const { value: loaded, retry } = useLazyModule(longLists, isLong, 'The list of report rows');
  if (!isLong) return <ShortList {...props} />;
  if (loaded !== null && loaded !== 'failed') return <loaded.LongList {...props} />;
  return <FirstItems {...props} onRetry={loaded === 'failed' ? retry : null} />;
}

function ShortList<T>({ items, itemKey, renderItem, label, className }: VirtualListProps<T>) {
  return (
    <ul className={['import-list', className ?? ''].filter(Boolean).join(' ')} aria-label={label}>
      {items.map((item) => (
        <li className="import-list__item" key={itemKey(item)}>
          {renderItem(item)}
        </li>
      ))}
    </ul>
  );
}

/**
 * A long list's first items, in the scroll box the windowed list will have and over the height it will have, while
 * that list loads; or for good, with a notice and "Try again", when it could not be loaded.
 */
function FirstItems<T>({ items, itemKey, renderItem, label, estimateSize = 64, className, onRetry }: VirtualListProps<T> & { onRetry: (() => void) | null }) {
  const shown = items.slice(0, FIRST_ITEMS);
  return (
    <>
      {onRetry !== null && (
        <div className="import-actions">
          <p role="alert">
            <FormattedMessage
              id="employees.importReport.listFailed"
              defaultMessage="Only the first {shown, number} of {count, number} rows are shown: the rest of the list could not be loaded. Check the connection and try again."
              values={{ shown: shown.length, count: items.length }}
            />
          </p>
          <Button variant="secondary" onClick={onRetry}>
            <FormattedMessage id="employees.importReport.listRetry" defaultMessage="Try again" />
          </Button>
        </div>
      )}
      <div
        className={['import-list', 'import-list--virtual', className ?? ''].filter(Boolean).join(' ')}
        role="list"
        aria-label={label}
        aria-busy={onRetry === null ? true : undefined}
        tabIndex={0}
      >
        <div className="import-list__space" style={{ minHeight: items.length * estimateSize }}>
          {shown.map((item, index) => (
            <div key={itemKey(item)} role="listitem" aria-setsize={items.length} aria-posinset={index + 1} className="import-list__item">
              {renderItem(item)}
            </div>
          ))}
        </div>
      </div>
    </>
  );
}
