// index.html's static shell (what the sign-in and registration pages show before the app's JavaScript runs) repeats
// a few of the app's texts, and public/boot-shell.js names the pages that show it: both must stay what the app says.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { ROOT } from '../../tests/unit/support/message-sources';
import { paths } from '../domain/paths';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const catalogues: Record<string, Record<string, string>> = { ru, en };

function shell(): Element {
  const document = new DOMParser().parseFromString(read('index.html'), 'text/html');
  const element = document.getElementById('boot-shell');
  if (!element) throw new Error('index.html has no #boot-shell');
  return element;
}

describe('the static shell of index.html', () => {
  it('shows the texts of locales/ru.json and locales/en.json, each in both languages', () => {
    const texts = [...shell().querySelectorAll('[data-message]')].map((element) => ({
      id: element.getAttribute('data-message') ?? '',
      lang: element.getAttribute('lang') ?? '',
      text: element.textContent,
    }));
    expect(texts.length).toBeGreaterThan(0);
    for (const { id, lang, text } of texts) {
      expect(Object.keys(catalogues), `${id}: lang="${lang}"`).toContain(lang);
      expect(text, `${id} in ${lang}`).toBe(catalogues[lang]?.[id]);
    }
    const ids = new Set(texts.map((text) => text.id));
    // Each text in both languages, as often in one as in the other (the product name is in both frames).
    for (const id of ids) {
      const langs = texts.filter((text) => text.id === id).map((text) => text.lang);
      expect(langs.filter((lang) => lang === 'en').length, id).toBe(langs.filter((lang) => lang === 'ru').length);
      expect(new Set(langs), id).toEqual(new Set(['en', 'ru']));
    }
  });

  it('has a page of its own for each page public/boot-shell.js shows it on, and is hidden from assistive technology', () => {
    const script = read('public/boot-shell.js');
    expect(script).toContain(`'${paths.auth.login}': 'login'`);
    expect(script).toContain(`'${paths.auth.register}': 'register'`);
    const pages = [...shell().querySelectorAll('[data-page]')].map((element) => element.getAttribute('data-page'));
    expect(pages.sort()).toEqual(['login', 'register']);
    expect(shell().getAttribute('aria-hidden')).toBe('true');
  });

  it("draws the signed-in frame with the default layout's classes, and nothing that says busy or is a landmark", () => {
    const frame = shell().querySelector('.boot-shell__app');
    expect(frame?.classList.contains('default-layout')).toBe(true);
    expect(frame?.querySelector('.app-header .app-header__inner .app-header__brand .app-header__product')).not.toBeNull();
    expect(frame?.querySelector('.default-layout__main')).not.toBeNull();
    // The shell stays in the page, hidden, where it is not shown (the other sign-in pages): nothing may look busy.
    expect(shell().querySelectorAll('[aria-busy], [data-loading], [role="status"]')).toHaveLength(0);
    expect(frame?.querySelectorAll('header, main, nav')).toHaveLength(0);
    // The boot script asks for the same session requests the app makes (src/lib/app-state.tsx), so it can take them.
    const script = read('public/boot-shell.js');
    for (const path of ['/user', '/enums', '/units']) expect(script).toContain(`'${path}'`);
    expect(script).toContain("'/main-service/api/v1' + path");
  });
});
