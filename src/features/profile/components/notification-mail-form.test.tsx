import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import ru from '../../../../locales/ru.json';
import type { NotificationMailMode } from '../../../domain/notification';
import { FormError } from '../../../ui/form';
import { NotificationMailForm } from './notification-mail-form';

afterEach(cleanup);

function renderForm(locale: 'en' | 'ru', value: NotificationMailMode, onSave: (mode: NotificationMailMode) => Promise<void>) {
  const view = (current: NotificationMailMode) => (
    <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en}>
      <NotificationMailForm value={current} onSave={onSave} />
    </IntlProvider>
  );
  const { rerender } = render(view(value));
  return (next: NotificationMailMode) => rerender(view(next));
}

describe('the notification mail setting', () => {
  it('saves the daily digest when chosen and says so', async () => {
    const user = userEvent.setup();
    let saved: NotificationMailMode = 'instant';
    const onSave = vi.fn((mode: NotificationMailMode) => {
      saved = mode;
      return Promise.resolve();
    });
    const update = renderForm('en', 'instant', onSave);
    expect(screen.getByRole('group', { name: 'E-mail notifications' })).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Each as it happens' }).checked).toBe(true);

    await user.click(screen.getByRole('radio', { name: 'One daily digest' }));
    update(saved);
    expect(onSave).toHaveBeenCalledWith('digest');
    expect((await screen.findByRole('status')).textContent).toBe('Saved: one digest a day.');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'One daily digest' }).checked).toBe(true);
  });

  it('puts the saved choice back and says why when saving fails, in Russian', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.reject(new FormError({ message: 'Нет связи с сервером.' })));
    renderForm('ru', 'digest', onSave);
    expect(screen.getByRole('group', { name: 'Уведомления по электронной почте' })).toBeTruthy();

    await user.click(screen.getByRole('radio', { name: 'Каждое сразу' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Нет связи с сервером.');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Одна сводка в день' }).checked).toBe(true);
  });

  it('has its own words for a failure without a message', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderForm('en', 'instant', () => Promise.reject(new Error('')));
    await user.click(screen.getByRole('radio', { name: 'One daily digest' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The setting was not saved. Try again.');
  });
});
