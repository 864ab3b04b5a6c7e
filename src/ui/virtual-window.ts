// The windowed list of the long lists (proposals, projects): only the rows in view, and a few around, are in the
// page (@tanstack/react-virtual), and the ids whose data the page should read come in chunks, so scrolling reads
// a new chunk only every WINDOW_CHUNK rows. Rows hold plain links (a router link per row costs a subscription
// each); one click listener on the list turns a plain left click into an in-app navigation with a history state
// (the list's own URL as the back link). No data access here: the page reads the window's rows.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef, type MouseEvent } from 'react';
import { useLocation } from 'wouter';

/** Rows kept in the page beyond those in view. */
const OVERSCAN = 6;
/** Rows whose data is read at a time: the window moves by whole chunks, one chunk before and after the view. */
const WINDOW_CHUNK = 40;

/** The list box, the virtual rows in it and the ids whose data the page should read now. */
export function useVirtualWindow(ids: readonly string[], rowHeight: number) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const getItemKey = useCallback((index: number) => ids[index] ?? index, [ids]);
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  // The virtualizer keeps its own mutable state: what it answers is read on every render.
  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
    initialRect: { width: 360, height: 800 },
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const from = Math.max(0, Math.floor(first / WINDOW_CHUNK) * WINDOW_CHUNK - WINDOW_CHUNK);
  const to = Math.min(ids.length, (Math.floor(last / WINDOW_CHUNK) + 2) * WINDOW_CHUNK);
  const windowIds = useMemo(() => ids.slice(from, to), [ids, from, to]);
  return { scrollRef, items, totalSize: virtualizer.getTotalSize(), windowIds };
}

/** The list's click listener: a plain left click on a row's `a[data-nav]` navigates in the app with `state`. */
export function useRowNavigation(state: unknown) {
  const [, navigate] = useLocation();
  return useCallback(
    (event: MouseEvent<HTMLUListElement>) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-nav]') : null;
      if (!link) return;
      event.preventDefault();
      navigate(link.getAttribute('href') ?? '', { state });
    },
    [navigate, state],
  );
}
