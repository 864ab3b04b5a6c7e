import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { PwaUpdateBanner } from './pwa-update-banner';

function renderIn(locale: 'en' | 'ru') {
  const onUpdate = vi.fn();
  const onLater = vi.fn();
  render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru} defaultLocale="en">
      <PwaUpdateBanner onUpdate={onUpdate} onLater={onLater} />
    </IntlProvider>,
  );
  return { onUpdate, onLater };
}

afterEach(cleanup);

describe('the offer of a new version', () => {
  it('says a new version is available and updates only when the user chooses Update', async () => {
    const { onUpdate, onLater } = renderIn('en');
    expect(screen.getByRole('status').textContent).toContain('A new version is available');
    expect(onUpdate).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(onUpdate).toHaveBeenCalledOnce();
    expect(onLater).not.toHaveBeenCalled();
  });

  it('lets the user put the update off with Later', async () => {
    const { onUpdate, onLater } = renderIn('en');
    await userEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(onLater).toHaveBeenCalledOnce();
    expect(onUpdate).not.toHaveBeenCalled();
  });

  it('speaks Russian', () => {
    renderIn('ru');
    expect(screen.getByRole('status').textContent).toContain('Доступна новая версия');
    expect(screen.getByRole('button', { name: 'Обновить' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Позже' })).toBeTruthy();
  });
});
