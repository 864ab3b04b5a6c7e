// A long list of report rows (an import can report 20,000), windowed by @tanstack/react-virtual inside its own
// scroll box: only what is on screen is in the page. A chunk of its own, loaded by virtual-list.tsx for long
// lists only.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { VirtualListProps } from './virtual-list';

export function LongList<T>({ items, itemKey, renderItem, label, estimateSize = 64, className }: VirtualListProps<T>) {
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
