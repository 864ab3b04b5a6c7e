// One click listener for a long list of plain links (a router link per row costs a subscription each): a plain left
// click on a row's `a[data-nav]` becomes an in-app navigation; Enter on a link is a click too. The windowed lists
// (virtual-window.ts) and the employees list use it.
import { useCallback, type MouseEvent } from 'react';
import { useLocation } from 'wouter';

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
