import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import './collapse.css';

/** How long the content takes to open or close (spec section 9); the CSS transition uses the same. */
export const COLLAPSE_TRANSITION_MS = 220;

export interface CollapseProps {
  /** The toggle's text. */
  title: ReactNode;
  /** Controlled: open or closed; leave undefined to let the toggle decide. */
  open?: boolean;
  defaultOpen?: boolean;
  onToggle?: (isOpen: boolean) => void;
  children: ReactNode;
}

/**
 * A disclosure (WAI-ARIA): a button with aria-expanded opens and closes the content with a height
 * transition. Closing hides the content from assistive technology at once; it leaves the page (the
 * `hidden` attribute) when the transition ends.
 */
export function Collapse({ title, open, defaultOpen = false, onToggle, children }: CollapseProps) {
  const id = useId();
  const [ownOpen, setOwnOpen] = useState(defaultOpen);
  const isOpen = open ?? ownOpen;
  // Only the first render sets `hidden`; afterwards the transition below owns it.
  const [isInitiallyHidden] = useState(!isOpen);
  const bodyRef = useRef<HTMLDivElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const isFirstRun = useRef(true);

  useLayoutEffect(() => {
    const body = bodyRef.current;
    if (!body) return;
    if (isFirstRun.current) {
      isFirstRun.current = false;
      return;
    }
    window.clearTimeout(timer.current);
    body.classList.add('collapse__body--moving');
    if (isOpen) {
      body.hidden = false;
      body.removeAttribute('aria-hidden');
      body.removeAttribute('inert');
      body.style.height = '0px';
      commitLayout(body);
      body.style.height = `${body.scrollHeight}px`;
      timer.current = window.setTimeout(() => {
        body.style.height = '';
        body.classList.remove('collapse__body--moving');
      }, COLLAPSE_TRANSITION_MS);
    } else {
      body.style.height = `${body.scrollHeight}px`;
      body.setAttribute('aria-hidden', 'true');
      body.setAttribute('inert', '');
      commitLayout(body);
      body.style.height = '0px';
      timer.current = window.setTimeout(() => {
        body.hidden = true;
        body.style.height = '';
        body.classList.remove('collapse__body--moving');
      }, COLLAPSE_TRANSITION_MS);
    }
    return () => window.clearTimeout(timer.current);
  }, [isOpen]);

  function toggle() {
    const next = !isOpen;
    if (open === undefined) setOwnOpen(next);
    onToggle?.(next);
  }

  return (
    <div className={isOpen ? 'collapse collapse--open' : 'collapse'}>
      <button type="button" className="collapse__toggle" id={`${id}-toggle`} aria-expanded={isOpen} aria-controls={`${id}-body`} onClick={toggle}>
        <span className="collapse__title">{title}</span>
        <span className="collapse__chevron" aria-hidden="true" />
      </button>
      <div className="collapse__body" id={`${id}-body`} role="region" aria-labelledby={`${id}-toggle`} ref={bodyRef} hidden={isInitiallyHidden}>
        <div className="collapse__content">{children}</div>
      </div>
    </div>
  );
}

/** Reading the layout makes the browser apply the height just set, so the transition starts from it. */
function commitLayout(element: HTMLElement): number {
  return element.offsetHeight;
}
