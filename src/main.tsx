import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { catalogueAreasOf } from './app/routes';
import { setCatalogueAreasFor } from './lib/intl';
import { installPageLifecycle } from './lib/db/page-lifecycle';
import './app/theme.css';

// The routes table decides which message catalogue areas each path loads (issue 9: catalogues per area).
setCatalogueAreasFor(catalogueAreasOf);

// WebKit freezes a page kept in its back-forward cache with its IndexedDB transactions, which then block every
// other page of the origin: the app's database releases them when this window hides (src/lib/db/page-lifecycle.ts).
installPageLifecycle(window, () => window.location.reload());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
