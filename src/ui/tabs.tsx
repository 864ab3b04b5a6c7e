import { useEffect, useId, useLayoutEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';
import './tabs.css';

/** The underline follows the chosen tab this long after the choice (spec section 9). */
export const TAB_UNDERLINE_DELAY_MS = 175;

export interface TabItem {
  id: string;
  title: ReactNode;
  disabled?: boolean;
}

export interface TabsProps {
  /** Names the tab list for screen readers. */
  label: string;
  tabs: readonly TabItem[];
  /** The id of the chosen tab. */
  value: string;
  onChange: (id: string) => void;
  /** The chosen tab's panel. */
  children?: ReactNode;
}

/**
 * Tabs of the WAI-ARIA pattern with automatic activation: one tab stop, arrow keys move between tabs
 * (wrapping), Home and End jump to the first and last; the panel below belongs to the chosen tab.
 */
export function Tabs({ label, tabs, value, onChange, children }: TabsProps) {
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const underlineRef = useRef<HTMLSpanElement>(null);
  const hasPlacedUnderline = useRef(false);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const activeIndex = Math.max(
    tabs.findIndex((tab) => tab.id === value),
    0,
  );
  const tabId = (id: string) => `${baseId}-tab-${id}`;
  const panelId = `${baseId}-panel`;

  // The underline is moved through the DOM, not state: it is decoration and re-rendering the tabs
  // for it would gain nothing. It appears under the first tab at once and later follows with a delay.
  useLayoutEffect(() => {
    const place = () => {
      const list = listRef.current;
      const underline = underlineRef.current;
      const tab = list?.querySelector<HTMLElement>(`[role="tab"][aria-selected="true"]`);
      if (!underline || !tab) return;
      underline.style.width = `${tab.offsetWidth}px`;
      underline.style.transform = `translateX(${tab.offsetLeft}px)`;
      underline.dataset.tab = tab.dataset.tabId;
    };
    if (!hasPlacedUnderline.current) {
      hasPlacedUnderline.current = true;
      place();
      return;
    }
    const timer = window.setTimeout(place, TAB_UNDERLINE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [value]);

  // A new width (phone turned, font loaded) moves the underline at once.
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const underline = underlineRef.current;
      const tab = list.querySelector<HTMLElement>(`[role="tab"][aria-selected="true"]`);
      if (!underline || !tab || underline.dataset.tab !== tab.dataset.tabId) return;
      underline.style.width = `${tab.offsetWidth}px`;
      underline.style.transform = `translateX(${tab.offsetLeft}px)`;
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, []);

  function choose(index: number) {
    const tab = tabs[index];
    if (!tab) return;
    onChange(tab.id);
    tabRefs.current[index]?.focus();
  }

  function handleKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const enabled = tabs.map((tab, index) => ({ tab, index })).filter(({ tab }) => !tab.disabled);
    if (enabled.length === 0) return;
    const position = enabled.findIndex(({ index }) => index === activeIndex);
    let next: number | undefined;
    if (event.key === 'ArrowRight') next = enabled[(position + 1) % enabled.length]?.index;
    else if (event.key === 'ArrowLeft') next = enabled[(position - 1 + enabled.length) % enabled.length]?.index;
    else if (event.key === 'Home') next = enabled[0]?.index;
    else if (event.key === 'End') next = enabled[enabled.length - 1]?.index;
    if (next === undefined) return;
    event.preventDefault();
    choose(next);
  }

  return (
    <div className="tabs">
      <div className="tabs__list" role="tablist" aria-label={label} ref={listRef} onKeyDown={handleKeyDown}>
        {tabs.map((tab, index) => {
          const isActive = index === activeIndex;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={tabId(tab.id)}
              data-tab-id={tab.id}
              className={isActive ? 'tabs__tab tabs__tab--active' : 'tabs__tab'}
              aria-selected={isActive}
              aria-controls={panelId}
              tabIndex={isActive ? 0 : -1}
              disabled={tab.disabled}
              onClick={() => choose(index)}
            >
              {tab.title}
            </button>
          );
        })}
        <span className="tabs__underline" ref={underlineRef} aria-hidden="true" />
      </div>
      {children !== undefined && (
        <div className="tabs__panel" role="tabpanel" id={panelId} aria-labelledby={tabs[activeIndex] ? tabId(tabs[activeIndex].id) : undefined} tabIndex={0}>
          {children}
        </div>
      )}
    </div>
  );
}
