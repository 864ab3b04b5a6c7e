import { useSyncExternalStore } from 'react';

/**
 * Where the header's links take over from the phone's bottom bar. The same query as the `min-width: 768px` rules
 * of default-layout.css and nav-bar.css: the labels chosen here and the layout chosen there switch together.
 */
export const WIDE_QUERY = '(min-width: 768px)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(WIDE_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Without matchMedia (no browser has none; a test's DOM may) the wide layout, the one that names every entry in full. */
function isWide(): boolean {
  return typeof window.matchMedia !== 'function' || window.matchMedia(WIDE_QUERY).matches;
}

/** Whether the screen is a tablet's or wider (header links), not a phone's (bottom bar and "More" sheet). */
export function useWideLayout(): boolean {
  return useSyncExternalStore(subscribe, isWide, () => true);
}
