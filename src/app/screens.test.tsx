import type { ReactNode } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { BrokenScreen } from '../ui/broken-screen';
import { ErrorScreen } from '../ui/error-screen';
import { ErrorBoundary } from './error-boundary';

function inLocale(locale: 'en' | 'ru', node: ReactNode) {
  return render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru} defaultLocale="en">
      {node}
    </IntlProvider>,
  );
}

function Exploding(): ReactNode {
  throw new Error('render failed');
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('error and broken screens', () => {
  it("shows the generic error screen, 'Oops...' and 'An unknown error occurred', when a screen throws", () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    inLocale(
      'en',
      <ErrorBoundary fallback={<ErrorScreen />}>
        <Exploding />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Oops...' })).toBeTruthy();
    expect(screen.getByText('An unknown error occurred')).toBeTruthy();
  });

  it('shows the generic error screen in Russian', () => {
    inLocale('ru', <ErrorScreen />);
    expect(screen.getByRole('heading', { name: 'Упс...' })).toBeTruthy();
    expect(screen.getByText('Произошла неизвестная ошибка')).toBeTruthy();
  });

  it("titles the broken screen 'unknown error' by default, with the 'Перезагрузить' button", () => {
    inLocale('ru', <BrokenScreen />);
    expect(screen.getByRole('heading', { name: 'неизвестная ошибка' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Перезагрузить' })).toBeTruthy();
  });

  it('shows the given title and text, and runs the callback instead of reloading', async () => {
    const onReload = vi.fn();
    inLocale('en', <BrokenScreen title="No connection" text="The server did not answer." onReload={onReload} />);
    expect(screen.getByRole('heading', { name: 'No connection' })).toBeTruthy();
    expect(screen.getByText('The server did not answer.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledTimes(1);
  });
});
