import { useState, type ReactNode } from 'react';
import { transitionDirection, type TransitionDirection } from './transition';
import './page-transition.css';

/**
 * Slides each new page in: from the left when going to a shorter path, from the right otherwise.
 * The first page of a layout does not move. Reduced motion turns the slide into nothing (see CSS).
 */
export function PageTransition({ location, children }: { location: string; children: ReactNode }) {
  const [shown, setShown] = useState<{ location: string; direction: TransitionDirection | null }>({ location, direction: null });
  if (shown.location !== location) {
    setShown({ location, direction: transitionDirection(shown.location, location) });
  }
  const className = shown.direction ? `page-transition page-transition--slide-${shown.direction}` : 'page-transition';
  return (
    <div key={location} className={className} data-transition={shown.direction ?? 'none'}>
      {children}
    </div>
  );
}
