// The interface language the user chose, kept in localStorage as `appLocale` (spec section 3), and mirrored into
// the `appLocale` cookie: the server reads it to name the messages of that language in a page's HTML shell, for
// the browser to fetch with the page's code (server/route-preloads.ts). It carries nothing else.
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
  shareLocaleWithServer(locale);
}

const COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

/** Mirrors `locale` into the `appLocale` cookie, unless it is there already (a cookie write costs the page). */
export function shareLocaleWithServer(locale: AppLocale, doc: Pick<Document, 'cookie'> = document): void {
  if (doc.cookie.split(/;\s*/).includes(`${LOCALE_KEY}=${locale}`)) return;
  doc.cookie = `${LOCALE_KEY}=${locale}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; SameSite=Lax`;
}
