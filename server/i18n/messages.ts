// Server-side messages: the same flat ICU catalogues as the client (locales/{ru,en}.json), read once
// at start. Every text the server sends to a person (error messages, mail, enum titles) goes
// through `translate`, so it follows the request's `Language` header or the user's stored locale.

import { readFileSync } from 'node:fs';
import { createIntl, createIntlCache, type IntlShape } from '@formatjs/intl';
import type { Locale } from '../../src/domain/auth';

export const LOCALES: readonly Locale[] = ['ru', 'en'];
export const DEFAULT_LOCALE: Locale = 'ru';

export type MessageValues = Record<string, string | number | Date | boolean | null | undefined>;

const cache = createIntlCache();
let intls: Record<Locale, IntlShape<string>> | null = null;

function readCatalogue(locale: Locale): Record<string, string> {
  const url = new URL(`../../locales/${locale}.json`, import.meta.url);
  const parsed: unknown = JSON.parse(readFileSync(url, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error(`locales/${locale}.json is not an object`);
  const messages: Record<string, string> = {};
  for (const [id, text] of Object.entries(parsed)) if (typeof text === 'string') messages[id] = text;
  return messages;
}

function getIntls(): Record<Locale, IntlShape<string>> {
  if (intls) return intls;
  const build = (locale: Locale) =>
    createIntl(
      {
        locale,
        defaultLocale: DEFAULT_LOCALE,
        messages: readCatalogue(locale),
        // A missing id is a bug the catalogue-parity test catches; at run time show the id, never throw.
        onError: () => undefined,
      },
      cache,
    );
  intls = { ru: build('ru'), en: build('en') };
  return intls;
}

export function hasMessage(id: string): boolean {
  return id in getIntls().ru.messages;
}

export function translate(locale: Locale, id: string, values?: MessageValues): string {
  return getIntls()[locale].formatMessage({ id }, values);
}

/** `Language: en`, `en-US`, `EN` mean English; anything else (or nothing) Russian. */
export function parseLocale(header: string | string[] | undefined): Locale {
  const value = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() ?? '';
  return value === 'en' || value.startsWith('en-') || value.startsWith('en_') ? 'en' : DEFAULT_LOCALE;
}
