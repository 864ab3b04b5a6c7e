import { act, cleanup, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { DialogProvider, useDialog } from './index';
import { startFakeClock, stopFakeClock, type FakeClockUser } from '../../../tests/unit/support/fake-clock';

function Harness() {
  const dialog = useDialog();
  const [result, setResult] = useState('none');
  const [closeLoad, setCloseLoad] = useState<(() => void) | null>(null);
  return (
    <div>
      <button type="button" onClick={() => void dialog.confirm({ title: 'Send the proposal?', content: 'It goes to the head of department.' }).then((ok) => setResult(String(ok)))}>
        open confirm
      </button>
      <button type="button" onClick={() => void dialog.alert({ content: 'Saved.' }).then(() => setResult('alert closed'))}>
        open alert
      </button>
      <button type="button" onClick={() => void dialog.error().then(() => setResult('error closed'))}>
        open error
      </button>
      <button type="button" onClick={() => setCloseLoad(() => dialog.load())}>
        open load
      </button>
      <button type="button" onClick={() => closeLoad?.()}>
        close load
      </button>
      <output data-testid="result">{result}</output>
    </div>
  );
}

function renderHarness(locale: 'en' | 'ru' = 'en') {
  return render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru} defaultLocale="en">
      <DialogProvider>
        <Harness />
      </DialogProvider>
    </IntlProvider>,
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));
/** Lets the dialog's promise reach the component that awaited it. */
const settle = () => act(async () => {});

let user: FakeClockUser;

beforeEach(() => {
  user = startFakeClock();
});

afterEach(() => {
  cleanup();
  stopFakeClock();
});

describe('dialog host', () => {
  it('shows a dialog 350 ms after it is asked for, and sets the body class while open', async () => {
    renderHarness();
    await user.click(screen.getByText('open confirm'));
    await advance(349);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.classList.contains('dialog-open')).toBe(false);
    await advance(1);
    const dialog = screen.getByRole('dialog', { name: 'Send the proposal?' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.textContent).toContain('It goes to the head of department.');
    expect(document.body.classList.contains('dialog-open')).toBe(true);
  });

  it('removes the body class on closing and unmounts the dialog 300 ms later', async () => {
    renderHarness();
    await user.click(screen.getByText('open alert'));
    await advance(350);
    await user.click(screen.getByRole('button', { name: 'OK' }));
    await settle();
    expect(document.body.classList.contains('dialog-open')).toBe(false);
    expect(screen.getByTestId('result').textContent).toBe('alert closed');
    expect(screen.getByRole('dialog')).toBeTruthy();
    await advance(299);
    expect(screen.queryByRole('dialog')).not.toBeNull();
    await advance(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('resolves confirm with true for the confirm button and false for Close', async () => {
    renderHarness();
    await user.click(screen.getByText('open confirm'));
    await advance(350);
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await settle();
    expect(screen.getByTestId('result').textContent).toBe('true');
    await advance(300);

    await user.click(screen.getByText('open confirm'));
    await advance(350);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await settle();
    expect(screen.getByTestId('result').textContent).toBe('false');
  });

  it('closes on Escape and gives focus back to the element that opened it', async () => {
    renderHarness();
    const opener = screen.getByText('open confirm');
    await user.click(opener);
    await advance(350);
    const dialog = screen.getByRole('dialog');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await settle();
    expect(screen.getByTestId('result').textContent).toBe('false');
    expect(document.activeElement).toBe(opener);
    await advance(300);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('keeps Tab inside the open dialog', async () => {
    renderHarness();
    await user.click(screen.getByText('open confirm'));
    await advance(350);
    const dialog = screen.getByRole('dialog');
    for (let i = 0; i < 5; i++) {
      await user.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await user.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it("shows the error defaults 'Error', 'Unknown error' and 'OK'", async () => {
    renderHarness();
    await user.click(screen.getByText('open error'));
    await advance(350);
    const dialog = screen.getByRole('dialog', { name: 'Error' });
    expect(dialog.textContent).toContain('Unknown error');
    expect(screen.getByRole('button', { name: 'OK' })).toBeTruthy();
  });

  it("shows the confirm defaults 'Отправить' and 'Закрыть' in Russian", async () => {
    renderHarness('ru');
    await user.click(screen.getByText('open confirm'));
    await advance(350);
    expect(screen.getByRole('button', { name: 'Отправить' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Закрыть' })).toBeTruthy();
  });

  it('shows the preloader only after 600 ms, so quick work never flashes it', async () => {
    renderHarness();
    await user.click(screen.getByText('open load'));
    await advance(599);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByText('close load'));
    await advance(1000);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.classList.contains('dialog-open')).toBe(false);
  });

  it('keeps the preloader open on Escape until its close function runs', async () => {
    renderHarness();
    await user.click(screen.getByText('open load'));
    await advance(600);
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.keyboard('{Escape}');
    await advance(1000);
    expect(screen.getByRole('dialog')).toBeTruthy();
    await user.click(screen.getByText('close load'));
    await advance(300);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
