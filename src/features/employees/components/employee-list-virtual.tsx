// The windowed employees list (@tanstack/react-virtual): only the rows in view (and a few around them) are in the
// page, so 10,000 people scroll like 20. A chunk of its own, loaded by employee-list.tsx for a long list only. On
// a phone the page itself scrolls (a box of its own would leave five rows between the filters and the screen's
// edge) and rows grow to fit their texts; on a wider screen the list is a box of fixed-height rows beside which
// the filters stay in view.
import { useVirtualizer, useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { EMPLOYEE_ROW_ESTIMATE_NARROW, EMPLOYEE_ROW_HEIGHT, EmployeeRow, useRegionLabel, useRowClick, type EmployeeListProps } from './employee-rows';

/** Rows rendered beyond the visible ones on each side, so a quick scroll does not show blanks. */
const OVERSCAN = 8;
// Module-level, so the virtualizer is handed the same functions on every render.
const estimateFixed = () => EMPLOYEE_ROW_HEIGHT;
const estimateNarrow = () => EMPLOYEE_ROW_ESTIMATE_NARROW;

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
export function PageScrolledList({ companyId, entries, canManage }: EmployeeListProps) {
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
export function BoxScrolledList({ companyId, entries, canManage }: EmployeeListProps) {
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
  entries: EmployeeListProps['entries'];
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
