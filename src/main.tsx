import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { catalogueAreasOf } from './app/routes';
import { setCatalogueAreasFor } from './lib/intl';
import './app/theme.css';

// The routes table decides which message catalogue areas each path loads (issue 9: catalogues per area).
setCatalogueAreasFor(catalogueAreasOf);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
