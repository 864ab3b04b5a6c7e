import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type ReactNode } from 'react';

/** Lists up to this long render whole; longer ones (an import can report 20,000 rows) render what is on screen. */
export const VIRTUALIZE_FROM = 100;

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

/** A list of report rows: plain when short, virtualized inside its own scroll box when long. */
export function VirtualList<T>(props: VirtualListProps<T>) {
  return props.items.length > VIRTUALIZE_FROM ? <LongList {...props} /> : <ShortList {...props} />;
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

function LongList<T>({ items, itemKey, renderItem, label, estimateSize = 64, className }: VirtualListProps<T>) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The app is not built with the React Compiler; nothing memoizes around the virtualizer's functions.
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is used as documented
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimateSize,
    overscan: 8,
    getItemKey: (index) => {
      const item = items[index];
      return item === undefined ? index : itemKey(item);
    },
  });
  return (
    // The box scrolls, not the page: it is focusable so keyboard users can scroll it.
    <div ref={scrollRef} className={['import-list', 'import-list--virtual', className ?? ''].filter(Boolean).join(' ')} role="list" aria-label={label} tabIndex={0}>
      <div className="import-list__space" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (item === undefined) return null;
          return (
            <div
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              role="listitem"
              aria-setsize={items.length}
              aria-posinset={row.index + 1}
              className="import-list__item import-list__item--virtual"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              {renderItem(item)}
            </div>
          );
        })}
      </div>
    </div>
  );
}
