import { afterEach, describe, expect, it } from 'vitest';
import { readStoredLocale, shareLocaleWithServer, storeLocale } from './locale-store';

/** A document's cookie jar as the browser keeps it: each write sets one cookie, a read lists them all. */
function cookieJar() {
  const cookies = new Map<string, string>();
  let writes = 0;
  return {
    get writes() {
      return writes;
    },
    get cookie() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(text: string) {
      writes += 1;
      const [pair = ''] = text.split(';');
      const [name = '', value = ''] = pair.split('=');
      cookies.set(name.trim(), value.trim());
    },
  };
}

afterEach(() => {
  window.localStorage.clear();
  document.cookie = 'appLocale=; Path=/; Max-Age=0';
});

describe('the stored language', () => {
  it('is kept in localStorage and mirrored into the appLocale cookie the server reads', () => {
    storeLocale('en');
    expect(readStoredLocale()).toBe('en');
    expect(document.cookie.split('; ')).toContain('appLocale=en');
    storeLocale('ru');
    expect(document.cookie.split('; ')).toContain('appLocale=ru');
  });

  it('writes the cookie only when it says another language', () => {
    const jar = cookieJar();
    jar.cookie = 'theme=dark';
    shareLocaleWithServer('en', jar);
    shareLocaleWithServer('en', jar);
    expect(jar.cookie).toBe('theme=dark; appLocale=en');
    expect(jar.writes).toBe(2);
    shareLocaleWithServer('ru', jar);
    expect(jar.cookie).toBe('theme=dark; appLocale=ru');
  });

  it('reads anything else stored as the default, Russian', () => {
    window.localStorage.setItem('appLocale', 'de');
    expect(readStoredLocale()).toBe('ru');
  });
});
