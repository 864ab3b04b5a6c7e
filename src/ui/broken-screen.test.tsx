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

describe('broken screen: the words follow the cause', () => {
  const failure = (status: number) => Object.assign(new Error(`HTTP ${status}`), { name: 'HttpError', status });

  it('asks to check the connection when nothing answered, and offers to try again', () => {
    inLocale('en', <BrokenScreen title="Could not load your account" error={failure(0)} />);
    expect(screen.getByRole('heading').textContent).toBe('Could not load your account');
    expect(screen.getByText(en['app.broken.noAnswer.text'])).toBeTruthy();
    expect(screen.getByRole('button', { name: en['app.broken.retry'] })).toBeTruthy();
    cleanup();
    inLocale('ru', <BrokenScreen error={new TypeError('Failed to fetch')} />);
    expect(screen.getByRole('heading').textContent).toBe('Нет связи с сервером');
    expect(screen.getByText('Проверьте подключение к интернету и попробуйте ещё раз.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Попробовать ещё раз' })).toBeTruthy();
  });

  it('puts a 500 on our side, never on the connection', () => {
    const { container } = inLocale('en', <BrokenScreen error={failure(500)} />);
    expect(screen.getByRole('heading').textContent).toBe('Something went wrong on our side');
    expect(screen.getByText(en['app.broken.server.text'])).toBeTruthy();
    expect(container.textContent).not.toMatch(/connection/i);
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    cleanup();
    const russian = inLocale('ru', <BrokenScreen title="Не удалось загрузить учётную запись" error={failure(503)} />);
    expect(screen.getByText(ru['app.broken.server.text'])).toBeTruthy();
    expect(russian.container.textContent).not.toMatch(/подключени/i);
    expect(russian.container.querySelector('[data-screen="broken"]')?.getAttribute('data-reason')).toBe('server');
  });

  it('words 403 and 404 their own way, with a reload rather than a retry', () => {
    inLocale('en', <BrokenScreen error={failure(403)} />);
    expect(screen.getByRole('heading').textContent).toBe(en['app.broken.forbidden.title']);
    expect(screen.getByText(en['app.broken.forbidden.text'])).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
    cleanup();
    inLocale('ru', <BrokenScreen error={failure(404)} />);
    expect(screen.getByRole('heading').textContent).toBe(ru['app.broken.notFound.title']);
    expect(screen.getByText(ru['app.broken.notFound.text'])).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Перезагрузить' })).toBeTruthy();
  });

  it('keeps a text it is given over the words of the cause', () => {
    inLocale('en', <BrokenScreen error={failure(500)} text="The server sent no user." />);
    expect(screen.getByText('The server sent no user.')).toBeTruthy();
    expect(screen.queryByText(en['app.broken.server.text'])).toBeNull();
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
