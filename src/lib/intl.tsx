// The react-intl provider and the language switch.
// Guarantees: only the active language's catalogue is downloaded (one chunk per language); the
// choice is kept in localStorage as `appLocale` (default ru), mirrored on `<html lang>`, and told to
// the server when signed in (so its mails use it); a failure to tell the server is logged, not shown.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import type { UserSettingsInput } from '../domain/auth';
import { http } from './api';
import { readStoredLocale, storeLocale, type AppLocale } from './locale-store';
import { tokenStore } from './token-store';

export type { AppLocale } from './locale-store';

export type Messages = Record<string, string>;

const catalogueLoaders: Record<AppLocale, () => Promise<{ default: Messages }>> = {
  ru: () => import('../../locales/ru.json'),
  en: () => import('../../locales/en.json'),
};

export function loadMessages(locale: AppLocale): Promise<Messages> {
  return catalogueLoaders[locale]().then((module) => module.default);
}

interface LocaleContextValue {
  locale: AppLocale;
  setLocale: (locale: AppLocale) => void;
}

const LocaleContext = createContext<LocaleContextValue | null>(null);

export function useLocale(): LocaleContextValue {
  const value = useContext(LocaleContext);
  if (!value) throw new Error('useLocale() is only available inside <AppIntlProvider>');
  return value;
}

async function tellServer(locale: AppLocale): Promise<void> {
  if (!tokenStore.getAccess()) return;
  try {
    const body: UserSettingsInput = { locale };
    await http.patch('/api/v1/user', body, { minDuration: 0 });
  } catch (error) {
    console.warn('Could not store the language on the server', error);
  }
}

/**
 * Provides messages of the stored language. Until the first catalogue has loaded it renders
 * `fallback`; when the language changes, the old texts stay until the new catalogue is there.
 */
export function AppIntlProvider({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [locale, setLocaleState] = useState<AppLocale>(() => readStoredLocale());
  const [loaded, setLoaded] = useState<{ locale: AppLocale; messages: Messages } | null>(null);

  useEffect(() => {
    let isCurrent = true;
    loadMessages(locale).then(
      (messages) => {
        if (isCurrent) setLoaded({ locale, messages });
      },
      (error: unknown) => {
        // Offline with an uncached chunk: the English default messages in the code still read well.
        console.error(`Could not load the ${locale} messages`, error);
        if (isCurrent) setLoaded({ locale, messages: {} });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [locale]);

  useEffect(() => {
    if (loaded) document.documentElement.lang = loaded.locale;
  }, [loaded]);

  const setLocale = useCallback((next: AppLocale) => {
    storeLocale(next);
    setLocaleState(next);
    void tellServer(next);
  }, []);

  const value = useMemo(() => ({ locale, setLocale }), [locale, setLocale]);

  if (!loaded) return <>{fallback}</>;
  return (
    <LocaleContext.Provider value={value}>
      <IntlProvider locale={loaded.locale} messages={loaded.messages} defaultLocale="en">
        {children}
      </IntlProvider>
    </LocaleContext.Provider>
  );
}
