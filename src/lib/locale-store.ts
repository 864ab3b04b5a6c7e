// The interface language the user chose, kept in localStorage as `appLocale` (spec section 3).
// Guarantees: only 'ru' or 'en' is ever returned; anything else stored there reads as the default 'ru'.
import { Locale } from '../domain/auth';

export type AppLocale = Locale;
export const LOCALE_KEY = 'appLocale';
export const DEFAULT_LOCALE: AppLocale = 'ru';
export const LOCALES: readonly AppLocale[] = ['ru', 'en'];

export function readStoredLocale(storage: Storage = window.localStorage): AppLocale {
  const stored = storage.getItem(LOCALE_KEY);
  return Locale.is(stored) ? stored : DEFAULT_LOCALE;
}

export function storeLocale(locale: AppLocale, storage: Storage = window.localStorage): void {
  storage.setItem(LOCALE_KEY, locale);
}
