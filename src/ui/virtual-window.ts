// The windowed list of the long lists (proposals, projects): only the rows in view, and a few around, are in the
// page, and the ids whose data the page should read come in chunks, so scrolling reads a new chunk only every
// WINDOW_CHUNK rows. Rows hold plain links (a router link per row costs a subscription each); one click listener
// on the list turns a plain left click into an in-app navigation with a history state (the list's own URL as the
// back link). No data access here: the page reads the window's rows.
//
// The window is TanStack Virtual's `Virtualizer` (@tanstack/virtual-core, 10 KB gzipped), driven here the way its
// React adapter drives it (useVirtualizer: one instance, options set on every render, a render on its change). It
// is fetched only for a list longer than PLAIN_UP_TO rows, so the usual list of a few dozen never downloads it:
// such a list is in the page whole. A long list shows its first FIRST_ROWS rows, in a box of its full height,
// until the virtualizer arrives and takes over the same box, without a remount; should it fail to load, the list
// is in the page whole, slower but complete.
import { useCallback, useLayoutEffect, useMemo, useReducer, useRef, useState, type Key } from 'react';
import { flushSync } from 'react-dom';
import type { Virtualizer, VirtualizerOptions } from '@tanstack/react-virtual';
import { lazyModule, useLazyModule } from './lazy-module';

export { useRowNavigation } from './row-navigation';

/** Rows kept in the page beyond those in view. */
const OVERSCAN = 6;
/** Rows whose data is read at a time: the window moves by whole chunks, one chunk before and after the view. */
const WINDOW_CHUNK = 40;
/** Lists up to this long are in the page whole, without the virtualizer. */
export const PLAIN_UP_TO = 100;
/** The rows a long list shows while the virtualizer is on its way. */
const FIRST_ROWS = WINDOW_CHUNK;

// The React adapter re-exports the whole core, so the chunk is the one the employees lists load too.
const virtualizer = lazyModule(() => import('@tanstack/react-virtual'));
if (!import.meta.env.PROD) await virtualizer.load();

type Core = NonNullable<typeof virtualizer.current>;
type Instance = Virtualizer<HTMLDivElement, Element>;

/** One row in the page: its place in the list, its key (the id) and where it starts in the list, in px. */
export interface WindowItem {
  index: number;
  key: Key;
  start: number;
}

/** Rows 0..count-1 at their fixed places, for a list in the page whole (or its first rows). */
function plainItems(ids: readonly string[], count: number, rowHeight: number): WindowItem[] {
  return Array.from({ length: Math.min(count, ids.length) }, (_, index) => ({ index, key: ids[index] ?? index, start: index * rowHeight }));
}

/** The list box, the rows in the page and the ids whose data the page should read now. */
export function useVirtualWindow(ids: readonly string[], rowHeight: number) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const isLong = ids.length > PLAIN_UP_TO;
  const { value: core } = useLazyModule(virtualizer, isLong, 'The list virtualizer');
  const rerender = useReducer((count: number) => count + 1, 0)[1];
  const getItemKey = useCallback((index: number) => ids[index] ?? index, [ids]);
  const estimateSize = useCallback(() => rowHeight, [rowHeight]);
  const [instance, setInstance] = useState<Instance | null>(null);
  const options = (from: Core): VirtualizerOptions<HTMLDivElement, Element> => ({
    count: ids.length,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    overscan: OVERSCAN,
    getItemKey,
    initialRect: { width: 360, height: 800 },
    scrollToFn: from.elementScroll,
    observeElementRect: from.observeElementRect,
    observeElementOffset: from.observeElementOffset,
    onChange: (_: Instance, sync: boolean) => (sync ? flushSync(rerender) : rerender()),
  });
  const isWindowed = isLong && core !== null && core !== 'failed';
  if (isWindowed && instance === null) setInstance(new core.Virtualizer(options(core)));
  if (isWindowed && instance !== null) instance.setOptions(options(core));
  useLayoutEffect(() => (isWindowed ? (instance?._didMount() ?? undefined) : undefined), [isWindowed, instance]);
  useLayoutEffect(() => {
    if (isWindowed) instance?._willUpdate();
  });

  let items: WindowItem[];
  let first = 0;
  let last = ids.length - 1;
  if (isWindowed && instance !== null) {
    items = instance.getVirtualItems();
    first = items[0]?.index ?? 0;
    last = items[items.length - 1]?.index ?? 0;
  } else items = plainItems(ids, isLong && core !== 'failed' ? FIRST_ROWS : ids.length, rowHeight);
  if (!isWindowed) last = Math.max(0, items.length - 1);
  const from = Math.max(0, Math.floor(first / WINDOW_CHUNK) * WINDOW_CHUNK - WINDOW_CHUNK);
  const to = isWindowed ? Math.min(ids.length, (Math.floor(last / WINDOW_CHUNK) + 2) * WINDOW_CHUNK) : items.length;
  const windowIds = useMemo(() => ids.slice(from, to), [ids, from, to]);
  return { scrollRef, items, totalSize: ids.length * rowHeight, windowIds };
}
