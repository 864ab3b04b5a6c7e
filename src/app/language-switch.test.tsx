import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { CATALOGUE_AREAS, catalogueOfArea } from '../lib/catalogue-areas';
import type { AreaLoaders } from '../lib/catalogue-store';
import { AppIntlProvider } from '../lib/intl';
import { LanguageSwitch } from './language-switch';

const loadersOf = (catalogue: Record<string, string>) =>
  Object.fromEntries(CATALOGUE_AREAS.map((area) => [area, () => Promise.resolve({ default: catalogueOfArea(catalogue, area) })])) as AreaLoaders['ru'];
const loaders: AreaLoaders = { ru: loadersOf(ru), en: loadersOf(en) };

async function renderSwitch(locale: 'ru' | 'en') {
  window.localStorage.setItem('appLocale', locale);
  // The catalogue suspends the first render until it has loaded: React retries it inside an awaited act.
  await act(() => {
    render(
      <AppIntlProvider loaders={loaders}>
        <LanguageSwitch />
      </AppIntlProvider>,
    );
    return Promise.resolve();
  });
  return screen.getByRole('group');
}

/** WCAG 2.5.3 as axe checks it (label-content-name-mismatch): the visible text is part of the name. */
function visibleTextIsInName(button: HTMLElement): boolean {
  const visible = (button.textContent ?? '').trim().toLowerCase();
  const name = (button.getAttribute('aria-label') ?? '').toLowerCase();
  return visible !== '' && name.startsWith(visible);
}

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

describe('language switch', () => {
  it('names each button by the code it shows, then the language, in Russian', async () => {
    const group = await renderSwitch('ru');
    expect(group.getAttribute('aria-label')).toBe('Язык интерфейса');
    const russian = within(group).getByRole('button', { name: 'RU — Русский' });
    const english = within(group).getByRole('button', { name: 'EN — Английский' });
    expect([russian.textContent, english.textContent]).toEqual(['RU', 'EN']);
    expect([russian, english].every(visibleTextIsInName)).toBe(true);
    expect(russian.getAttribute('aria-pressed')).toBe('true');
    expect(english.getAttribute('aria-pressed')).toBe('false');
    // The tooltip says the same as the name, so it is not read a second time as a description.
    expect(english.getAttribute('title')).toBe('EN — Английский');
  });

  it('keeps its data-locale hooks and switches the language, naming itself in the new one', async () => {
    const user = userEvent.setup({ delay: null });
    const group = await renderSwitch('ru');
    const english = group.querySelector<HTMLElement>('[data-locale="en"]');
    if (!english) throw new Error('no [data-locale="en"] button');
    expect(english.textContent).toBe('EN');
    await act(async () => {
      await user.click(english);
    });
    expect(window.localStorage.getItem('appLocale')).toBe('en');
    expect(await within(group).findByRole('button', { name: 'EN — English', pressed: true })).toBeTruthy();
    const russian = within(group).getByRole('button', { name: 'RU — Russian' });
    expect(russian.getAttribute('aria-pressed')).toBe('false');
    expect(within(group).getAllByRole('button').every(visibleTextIsInName)).toBe(true);
  });
});
