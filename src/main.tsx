import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, preloadScreen } from './app/app';
import { catalogueAreasOf } from './app/routes';
import { setCatalogueAreasFor } from './lib/intl';
import { installPageLifecycle } from './lib/db/page-lifecycle';
import { readStoredLocale, shareLocaleWithServer } from './lib/locale-store';
import './app/theme.css';
// In the entry's render-blocking stylesheet, not with the signed-in frame's code: index.html's static shell draws
// the signed-in frame with these classes before any JavaScript runs (src/app/boot-loading.css).
import './app/default-layout.css';

// The routes table decides which message catalogue areas each path loads (issue 9: catalogues per area).
setCatalogueAreasFor(catalogueAreasOf);

// WebKit freezes a page kept in its back-forward cache with its IndexedDB transactions, which then block every
// other page of the origin: the app's database releases them when this window hides (src/lib/db/page-lifecycle.ts).
installPageLifecycle(window, () => window.location.reload());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Two one-time costs the first screen would otherwise pay inside the render that shows it, paid here in tasks of
// their own while the network brings the route's messages and page: Intl's locale data (react-intl checks the
// locale when its provider is created) and the first touch of sessionStorage (a lazily loaded page clears its
// reload-once mark, src/app/lazy-page.ts), a synchronous round trip to the browser process that takes tens of
// milliseconds on a busy phone. Shorter tasks keep the page answering input while it starts (Lighthouse's TBT).
setTimeout(() => {
  const locale = readStoredLocale();
  Intl.NumberFormat.supportedLocalesOf(locale);
  Intl.DateTimeFormat.supportedLocalesOf(locale);
}, 0);
// The language stored before the server read it from a cookie (src/lib/locale-store.ts) is mirrored there now.
setTimeout(() => {
  try {
    shareLocaleWithServer(readStoredLocale());
  } catch (error) {
    // Storage or cookies disabled: the server names the default language's messages, the app loads its own.
    console.warn('Could not tell the server the language through its cookie', error);
  }
}, 0);
setTimeout(() => {
  try {
    window.sessionStorage.getItem('');
  } catch (error) {
    // Storage disabled: the page that uses it meets the same refusal and handles it; nothing to warm up.
    console.warn('sessionStorage is not available', error);
  }
}, 0);

const root = createRoot(container);
// The first screen's code and messages (and a signed-in screen's session) are fetched at once, side by side, and
// it is rendered once they are there, whole (src/app/app.tsx).
void preloadScreen(window.location.pathname).then(() => {
  // A transition: React renders the first screen in slices of a few milliseconds and lets the browser in between,
  // instead of one long task.
  startTransition(() => {
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
});
