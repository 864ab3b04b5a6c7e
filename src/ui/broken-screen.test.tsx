import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { BrokenScreen } from './broken-screen';
import { Spinner } from './spinner';

function inLocale(locale: 'en' | 'ru', node: ReactNode) {
  return render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru}>
      {node}
    </IntlProvider>,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('broken screen (spec section 8)', () => {
  it("is titled 'unknown error' by default and offers 'Перезагрузить'", () => {
    inLocale('ru', <BrokenScreen />);
    expect(screen.getByRole('heading').textContent).toBe(ru['app.broken.defaultTitle']);
    expect(screen.getByRole('button', { name: 'Перезагрузить' })).toBeTruthy();
    cleanup();
    inLocale('en', <BrokenScreen />);
    expect(screen.getByRole('heading').textContent).toBe('unknown error');
  });

  it('shows the text only when given one', () => {
    const { container } = inLocale('en', <BrokenScreen title="No data" />);
    expect(container.querySelector('.screen-message__text')).toBeNull();
    cleanup();
    inLocale('en', <BrokenScreen title="No data" text="The server sent no user." />);
    expect(screen.getByText('The server sent no user.')).toBeTruthy();
  });

  it('reloads the page when no callback is given', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    inLocale('ru', <BrokenScreen />);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Перезагрузить' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('runs the callback instead of reloading', async () => {
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    const onReload = vi.fn();
    inLocale('en', <BrokenScreen onReload={onReload} />);
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: en['app.broken.reload'] }));
    expect(onReload).toHaveBeenCalledTimes(1);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('spinner', () => {
  it('announces loading in the user language', () => {
    inLocale('ru', <Spinner />);
    expect(screen.getByRole('status', { name: ru['common.loading'] })).toBeTruthy();
  });

  it('stays silent when decorative', () => {
    const { container } = inLocale('en', <Spinner decorative size="small" />);
    expect(screen.queryByRole('status')).toBeNull();
    expect(container.querySelector('.spinner--small')?.getAttribute('aria-hidden')).toBe('true');
  });
});
