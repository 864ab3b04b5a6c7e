import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { TEXTAREA_AUTO_HEIGHT_DELAY_MS, Textarea } from './textarea';
import { startFakeClock, stopFakeClock } from '../../tests/unit/support/fake-clock';

/** Moves the fake clock; React renders what the timers changed. */
const advance = (ms: number): void => {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
};

function Comment({ maxLength, locale = 'en' }: { maxLength?: number; locale?: 'en' | 'ru' }) {
  const [value, setValue] = useState('');
  return (
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru}>
      <Textarea label="Comment" name="comment" value={value} onChange={setValue} maxLength={maxLength} />
    </IntlProvider>
  );
}

const comment = () => screen.getByLabelText<HTMLTextAreaElement>('Comment');

afterEach(() => {
  cleanup();
  stopFakeClock();
});

describe('textarea', () => {
  it("counts 'N / max characters' as the user types", async () => {
    const user = userEvent.setup({ delay: null });
    render(<Comment maxLength={200} />);
    expect(screen.getByText('0 / 200 characters')).toBeTruthy();
    await user.type(comment(), 'Hello');
    const counter = screen.getByText('5 / 200 characters');
    expect(comment().getAttribute('aria-describedby')).toContain(counter.id);
  });

  it("counts in Russian: 'N / max символов'", async () => {
    const user = userEvent.setup({ delay: null });
    render(<Comment maxLength={500} locale="ru" />);
    await user.type(comment(), 'Привет');
    expect(screen.getByText('6 / 500 символов')).toBeTruthy();
  });

  it('takes no more than maxLength characters', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Comment maxLength={5} />);
    await user.type(comment(), 'abcdefgh');
    expect(comment().value).toBe('abcde');
    expect(screen.getByText('5 / 5 characters')).toBeTruthy();
  });

  it('shows no counter without maxLength', () => {
    render(<Comment />);
    expect(screen.queryByText(/characters/)).toBeNull();
  });

  it('grows to its content height plus 4 px, 50 ms after a change', async () => {
    const user = startFakeClock();
    render(<Comment />);
    advance(TEXTAREA_AUTO_HEIGHT_DELAY_MS);
    // jsdom lays nothing out: the content height is what a browser would report for three lines.
    Object.defineProperty(comment(), 'scrollHeight', { configurable: true, get: () => 120 });
    await user.type(comment(), 'Line one{Enter}Line two{Enter}Line three');
    advance(TEXTAREA_AUTO_HEIGHT_DELAY_MS - 1);
    expect(comment().style.height).not.toBe('124px');
    advance(1);
    expect(comment().style.height).toBe('124px');
  });
});
