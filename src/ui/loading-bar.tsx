import './loading-bar.css';

/**
 * The loading indicator of spec section 2: shown until routing is ready and while a page chunk loads.
 * It renders no text so it can show before the messages have loaded; `label` names it when they have.
 */
export function LoadingBar({ label }: { label?: string }) {
  return <div className="loading-bar" role="progressbar" aria-label={label} aria-busy="true" data-loading="route" />;
}
