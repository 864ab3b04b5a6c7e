// The UI kit showcase: every sections/*-section.tsx default export, in file-name order, inside the app's
// intl provider (language kept as `appLocale`, switched with the app's [data-locale] buttons) and its
// dialog host, styled by the app's theme.
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { LanguageSwitch } from '../../../src/app/language-switch';
import { AppIntlProvider } from '../../../src/lib/intl';
import { DialogProvider } from '../../../src/ui/dialog';
import '../../../src/app/theme.css';
import './kit.css';

const modules = import.meta.glob<{ default: ComponentType }>('./sections/*-section.tsx', { eager: true });
const sections = Object.entries(modules)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([path, module]) => ({ path, Section: module.default }));

function Kit() {
  return (
    <main className="kit">
      <header className="kit__header">
        <LanguageSwitch />
      </header>
      {sections.map(({ path, Section }) => (
        <div className="kit__section" key={path}>
          <Section />
        </div>
      ))}
    </main>
  );
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <AppIntlProvider>
      <DialogProvider>
        <Kit />
      </DialogProvider>
    </AppIntlProvider>
  </StrictMode>,
);
