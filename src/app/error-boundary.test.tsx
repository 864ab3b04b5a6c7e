import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { createHttpClient, HttpError, RequestTimeoutError } from '../lib/http';
import { brokenReasonOf } from '../ui/broken-reason';
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

function Throwing({ error }: { error: unknown }): ReactNode {
  throw error;
}

/** What the app's client rejects with for a GET answered by `fetch`. */
async function failureOf(fetch: typeof globalThis.fetch): Promise<unknown> {
  const client = createHttpClient({
    prefix: '/main-service',
    tokens: { getAccess: () => 'a1', getRefresh: () => 'r1', set: vi.fn(), clear: vi.fn() },
    fetch,
    getLocale: () => 'en',
    onAuthFailure: vi.fn(),
    defaultTimeoutMs: 1_000,
  });
  return client.get('/api/v1/user', undefined, { minDuration: 0 }).then(
    () => {
      throw new Error('the request was expected to fail');
    },
    (error: unknown) => error,
  );
}

const answer = (status: number, body: unknown) => () => Promise.resolve(new Response(JSON.stringify(body), { status }));

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('brokenReasonOf on what the app’s HTTP client really throws', () => {
  it('tells a 500, a 403, a 404, a refused connection and a passed deadline apart', async () => {
    expect(brokenReasonOf(await failureOf(answer(500, { message: 'Internal Server Error' })))).toBe('server');
    expect(brokenReasonOf(await failureOf(answer(403, { message: 'Forbidden' })))).toBe('forbidden');
    expect(brokenReasonOf(await failureOf(answer(404, { message: 'Not Found' })))).toBe('not-found');
    const refused = await failureOf(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(refused).toBeInstanceOf(HttpError);
    expect(brokenReasonOf(refused)).toBe('no-answer');

    // A fetch that never answers: the client's deadline settles it as no answer, marked as a timeout.
    vi.useFakeTimers();
    const hanging = failureOf(() => new Promise<Response>(() => undefined));
    await vi.advanceTimersByTimeAsync(1_000);
    const timedOut = await hanging;
    expect(timedOut instanceof HttpError && timedOut.cause instanceof RequestTimeoutError).toBe(true);
    expect(brokenReasonOf(timedOut)).toBe('no-answer');
    expect(brokenReasonOf(new RequestTimeoutError(15_000))).toBe('no-answer');
  });
});

describe('the broken screen given the session’s failure', () => {
  it('no longer sends the user to check the connection when the server answered 500', () => {
    const { container } = inLocale('ru', <BrokenScreen title="Не удалось загрузить учётную запись" error={new HttpError(500, { message: 'Internal Server Error' })} />);
    expect(screen.getByRole('heading').textContent).toBe('Не удалось загрузить учётную запись');
    expect(screen.getByText(ru['app.broken.server.text'])).toBeTruthy();
    expect(container.textContent).not.toContain(ru['session.broken.text']);
    expect(screen.getByRole('button', { name: ru['app.broken.retry'] })).toBeTruthy();
  });

  it('reads the session’s failed outcome ({ ok: false, status }) as it is', () => {
    inLocale('en', <BrokenScreen error={{ ok: false, status: 0, message: null }} />);
    expect(screen.getByText(en['app.broken.noAnswer.text'])).toBeTruthy();
  });
});

describe('error boundary and error screen', () => {
  it("keeps 'Oops...' for a screen that failed by itself", () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    inLocale(
      'en',
      <ErrorBoundary fallback={<ErrorScreen />}>
        <Throwing error={new Error('render failed')} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Oops...' })).toBeTruthy();
    expect(screen.getByText('An unknown error occurred')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeTruthy();
  });

  it('says there is no connection when a part of the app could not be downloaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const onReload = vi.fn();
    inLocale(
      'ru',
      <ErrorBoundary fallback={<ErrorScreen onReload={onReload} />}>
        <Throwing error={new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/goals-page-1a2b.js')} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Нет связи с сервером' })).toBeTruthy();
    expect(screen.getByText(ru['app.broken.noAnswer.text'])).toBeTruthy();
    expect(screen.queryByText(ru['app.error.text'])).toBeNull();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Попробовать ещё раз' }));
    expect(onReload).toHaveBeenCalledTimes(1);
  });

  it('words a request error that reached it by its status', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    inLocale(
      'en',
      <ErrorBoundary fallback={<ErrorScreen />}>
        <Throwing error={new HttpError(502, null)} />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: en['app.broken.server.title'] })).toBeTruthy();
    expect(document.querySelector('[data-screen="error"]')?.getAttribute('data-reason')).toBe('server');
  });
});
