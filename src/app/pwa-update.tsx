// Offers a new version of the app to the user; never activates one on its own.
//
// The service worker (sw/sw.ts) waits after installing a new version. Only the "Update" button here sends
// it { type: 'SKIP_WAITING' } (through updateServiceWorker), after which the page reloads into the new
// version. "Later" hides the banner; the new version then activates once every tab of the app is closed,
// which is the browser's own rule and never interrupts work in progress.
import { useEffect, useRef } from 'react';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { PwaUpdateBanner } from './pwa-update-banner';

// A tab left open for days should still learn about a new version.
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export function PwaUpdatePrompt() {
  const registrationRef = useRef<ServiceWorkerRegistration | undefined>(undefined);
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisteredSW(_url, registration) {
      registrationRef.current = registration;
    },
    onRegisterError(error: unknown) {
      // The app works without a service worker (online only); the failure is worth a trace, not a dialog.
      console.error('Service worker registration failed', error);
    },
  });

  useEffect(() => {
    const timer = window.setInterval(() => {
      const registration = registrationRef.current;
      if (!registration || !navigator.onLine || registration.installing) return;
      registration.update().catch((error: unknown) => {
        console.warn('Service worker update check failed', error);
      });
    }, UPDATE_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);

  if (!needRefresh) return null;

  const applyUpdate = () => {
    // workbox-window reloads by itself only when this tab was already controlled when it registered; on a
    // first visit the worker claimed the tab later (sw.ts), so the reload into the new version is ours.
    navigator.serviceWorker?.addEventListener('controllerchange', () => window.location.reload(), { once: true });
    updateServiceWorker(true).catch((error: unknown) => {
      console.error('Service worker update failed', error);
    });
  };

  return <PwaUpdateBanner onUpdate={applyUpdate} onLater={() => setNeedRefresh(false)} />;
}
