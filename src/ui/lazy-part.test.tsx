import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { lazyPart } from './lazy-part';

afterEach(cleanup);

function Greeting({ name }: { name: string }) {
  return <p>Hello, {name}</p>;
}

function GreetingPlaceholder({ name }: { name: string }) {
  return <p aria-busy="true">Waiting for {name}</p>;
}

/** A loader the test settles by hand. */
function heldLoader() {
  const attempts: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  const load = vi.fn(
    () =>
      new Promise<typeof Greeting>((resolve, reject) => {
        attempts.push({ resolve: () => resolve(Greeting), reject });
      }),
  );
  return { load, attempts };
}

function renderIn(locale: 'en' | 'ru', element: React.ReactElement) {
  return render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru}>
      {element}
    </IntlProvider>,
  );
}

describe('a lazily loaded part of a page', () => {
  it('shows its placeholder, with the same props, until the part arrives', async () => {
    const { load, attempts } = heldLoader();
    const Part = lazyPart(load, GreetingPlaceholder);
    renderIn('en', <Part name="Anna" />);
    expect(screen.getByText('Waiting for Anna')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
    act(() => attempts[0]?.resolve());
    expect(await screen.findByText('Hello, Anna')).toBeTruthy();
    expect(screen.queryByText('Waiting for Anna')).toBeNull();
  });

  it('says in both languages that it could not be loaded, and loads on "Try again"', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { load, attempts } = heldLoader();
    const Part = lazyPart(load, GreetingPlaceholder);
    renderIn('en', <Part name="Anna" />);
    act(() => attempts[0]?.reject(new Error('offline')));
    expect((await screen.findByRole('alert')).textContent).toBe(en['ui.part.loadFailed']);
    await userEvent.click(screen.getByRole('button', { name: en['ui.part.retry'] }));
    expect(screen.getByText('Waiting for Anna')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
    act(() => attempts[1]?.resolve());
    expect(await screen.findByText('Hello, Anna')).toBeTruthy();
    cleanup();

    const Again = lazyPart(() => Promise.reject(new Error('offline')), GreetingPlaceholder);
    renderIn('ru', <Again name="Анна" />);
    expect((await screen.findByRole('alert')).textContent).toBe(ru['ui.part.loadFailed']);
    expect(screen.getByRole('button', { name: ru['ui.part.retry'] })).toBeTruthy();
    expect(consoleError).toHaveBeenCalled();
    consoleError.mockRestore();
  });

  it('renders at once where the part is already loaded', async () => {
    const Part = lazyPart(() => Promise.resolve(Greeting), GreetingPlaceholder);
    await Part.preload();
    renderIn('en', <Part name="Boris" />);
    expect(screen.getByText('Hello, Boris')).toBeTruthy();
  });
});
