import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { EMAIL_PATTERN, expandShortcuts, multiplyModelValue, type MaskKind } from './masks';
import { TextField } from './text-field';

function Masked({ mask, initial = '', locale = 'en', tip }: { mask: MaskKind; initial?: string; locale?: 'en' | 'ru'; tip?: string | null }) {
  const [value, setValue] = useState(initial);
  return (
    <IntlProvider locale={locale} messages={locale === 'en' ? en : ru}>
      <TextField label="Value" name="value" value={value} onChange={setValue} mask={mask} {...(tip === undefined ? {} : { tip })} />
      <output data-testid="model">{value}</output>
      <button type="button" onClick={() => setValue('2500')}>
        Set 2500
      </button>
    </IntlProvider>
  );
}

const field = () => screen.getByLabelText<HTMLInputElement>('Value');
const model = () => screen.getByTestId('model').textContent;

afterEach(cleanup);

async function typeInto(mask: MaskKind, text: string) {
  const user = userEvent.setup({ delay: null });
  render(<Masked mask={mask} />);
  await user.type(field(), text);
  return user;
}

describe('numeric mask', () => {
  it("groups thousands with ',' and gives the model the plain number", async () => {
    await typeInto('number', '1234567');
    expect(field().value).toBe('1,234,567');
    expect(model()).toBe('1234567');
  });

  it('multiplies by 1000 for k and by 1000000 for m', async () => {
    await typeInto('number', '5k');
    expect(field().value).toBe('5,000');
    expect(model()).toBe('5000');
    cleanup();
    await typeInto('number', '2m');
    expect(model()).toBe('2000000');
    cleanup();
    await typeInto('number', '1.5k');
    expect(model()).toBe('1500');
  });

  it('takes the shortcuts from a Russian keyboard layout too (к, м)', async () => {
    await typeInto('number', '3к');
    expect(model()).toBe('3000');
  });

  it('expands shortcuts in pasted text', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Masked mask="number" />);
    await user.click(field());
    await user.paste('7k');
    expect(model()).toBe('7000');
  });

  it('refuses letters other than the shortcuts', async () => {
    await typeInto('number', '12abc');
    expect(field().value).toBe('12');
  });

  it('shows a model update from code formatted', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Masked mask="number" />);
    await user.click(screen.getByRole('button', { name: 'Set 2500' }));
    expect(field().value).toBe('2,500');
    expect(model()).toBe('2500');
  });

  it('offers the example hint 1,000,000 as its tip, in both languages', () => {
    render(<Masked mask="number" />);
    expect(screen.getByText(en['ui.mask.number.tip'])).toBeTruthy();
    expect(en['ui.mask.number.tip']).toContain('1,000,000');
    cleanup();
    render(<Masked mask="number" locale="ru" />);
    expect(screen.getByText(ru['ui.mask.number.tip'])).toBeTruthy();
    expect(ru['ui.mask.number.tip']).toContain('1,000,000');
  });

  it('drops the example tip when the caller passes tip={null}', () => {
    render(<Masked mask="number" tip={null} />);
    expect(screen.queryByText(en['ui.mask.number.tip'])).toBeNull();
  });
});

describe('percentage mask', () => {
  it("takes 0 to 100 and shows ' %' beside the number", async () => {
    await typeInto('percent', '150');
    expect(field().value).toBe('15');
    expect(model()).toBe('15');
    const suffix = field().parentElement?.querySelector('.field__affix--suffix');
    expect(suffix?.textContent).toBe('%');
    expect(field().getAttribute('aria-describedby')).toContain(suffix?.id ?? 'missing');
  });

  it('takes 100 and fractions below it', async () => {
    await typeInto('percent', '100');
    expect(model()).toBe('100');
    cleanup();
    await typeInto('percent', '12.5');
    expect(model()).toBe('12.5');
  });

  it('offers the example hint 10', () => {
    render(<Masked mask="percent" />);
    expect(screen.getByText(en['ui.mask.percent.tip'])).toBeTruthy();
    expect(en['ui.mask.percent.tip']).toContain('10');
  });
});

describe('currency mask', () => {
  it('has 2 fraction digits and the , group separator, padded when the field is left', async () => {
    const user = await typeInto({ currency: 'RUB' }, '1234567.891');
    expect(field().value).toBe('1,234,567.89');
    await user.tab();
    expect(field().value).toBe('1,234,567.89');
    expect(Number(model())).toBe(1234567.89);
    cleanup();
    const again = await typeInto({ currency: 'USD' }, '12.5');
    await again.tab();
    expect(field().value).toBe('12.50');
  });

  it.each([
    ['RUB', '₽', 'suffix'],
    ['USD', '$', 'prefix'],
    ['AUD', 'A$', 'prefix'],
  ] as const)('shows the sign of %s', (currency, sign, position) => {
    render(<Masked mask={{ currency }} />);
    expect(field().parentElement?.querySelector(`.field__affix--${position}`)?.textContent).toBe(sign);
  });

  it('takes the k and m shortcuts', async () => {
    await typeInto({ currency: 'USD' }, '2k');
    expect(model()).toBe('2000');
  });

  it('shows an expanded shortcut as typed digits while editing, and pads it only when the field is left', async () => {
    const user = await typeInto({ currency: 'RUB' }, '5к');
    expect(field().value).toBe('5,000');
    await user.tab();
    expect(field().value).toBe('5,000.00');
    expect(model()).toBe('5000');
  });

  it('keeps typing after an expanded shortcut, as after typed digits', async () => {
    await typeInto({ currency: 'USD' }, '1.5k5');
    expect(field().value).toBe('15,005');
    expect(model()).toBe('15005');
  });
});

describe('e-mail mask', () => {
  it('keeps an ordinary address as typed', async () => {
    await typeInto('email', 'ivan.petrov@example.ru');
    expect(model()).toBe('ivan.petrov@example.ru');
  });

  it('stops the local part at 64 characters', async () => {
    await typeInto('email', `${'a'.repeat(70)}@x.ru`);
    expect(model()).toBe(`${'a'.repeat(64)}@x.ru`);
  });

  it('stops each domain label at 63 characters', async () => {
    await typeInto('email', `a@${'b'.repeat(70)}.ru`);
    expect(model()).toBe(`a@${'b'.repeat(63)}.ru`);
  });

  it('refuses spaces and a second @', async () => {
    await typeInto('email', 'a b@c@d.ru');
    expect(model()).toBe('ab@cd.ru');
  });

  it('leaves the text and the caret where they were when a keystroke is refused mid-text', async () => {
    const user = await typeInto('email', 'ab@cd.ru');
    await user.type(field(), '@', { initialSelectionStart: 2, initialSelectionEnd: 2 });
    expect(field().value).toBe('ab@cd.ru');
    expect(field().selectionStart).toBe(2);
    await user.keyboard('x');
    expect(model()).toBe('abx@cd.ru');
  });

  it('shows a model update from code as it is', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Masked mask="email" />);
    await user.click(screen.getByRole('button', { name: 'Set 2500' }));
    expect(field().value).toBe('2500');
    expect(model()).toBe('2500');
  });
});

describe('phone mask', () => {
  it('formats a Russian number and gives the model its digits with +', async () => {
    await typeInto('phone', '9123456789');
    expect(field().value).toBe('+7 (912) 345-67-89');
    expect(model()).toBe('+79123456789');
  });

  it('reads a pasted number with the domestic 8 as +7', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Masked mask="phone" />);
    await user.click(field());
    await user.paste('8 912 345 67 89');
    expect(model()).toBe('+79123456789');
  });

  it('keeps a foreign number that starts with its own country code', async () => {
    await typeInto('phone', '+442079460958');
    expect(model()).toBe('+442079460958');
  });

  it('shows a foreign number given as the value in its own pattern, not as a Russian one', () => {
    render(<Masked mask="phone" initial="+442079460958" />);
    expect(field().value.replace(/\D/g, '')).toBe('442079460958');
    expect(field().value).not.toMatch(/^\+7/);
    expect(model()).toBe('+442079460958');
  });
});

describe('the mask shows on focus, not on hover', () => {
  it('shows its placeholder only while the field is focused', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Masked mask="phone" />);
    await user.hover(field());
    expect(field().getAttribute('placeholder')).toBeNull();
    await user.click(field());
    expect(field().getAttribute('placeholder')).toBe('+7 (___) ___-__-__');
    await user.tab();
    expect(field().getAttribute('placeholder')).toBeNull();
    expect(field().value).toBe('');
    expect(model()).toBe('');
  });
});

describe('mask helpers', () => {
  it('multiply decimal text without floating-point noise', () => {
    expect(multiplyModelValue('1.1', 1000)).toBe('1100');
    expect(multiplyModelValue('0.123456', 1_000_000)).toBe('123456');
    expect(multiplyModelValue('1.23456', 1000)).toBe('1234.56');
    expect(multiplyModelValue('', 1000)).toBe('');
  });

  it('expand k and m in text, leaving words alone', () => {
    expect(expandShortcuts('5k')).toBe('5000');
    expect(expandShortcuts('1.5M')).toBe('1500000');
    expect(expandShortcuts('5 kg')).toBe('5 kg');
  });

  it('accept every prefix of a valid address and nothing longer than the limits', () => {
    for (const prefix of ['', 'a', 'a@', 'a@b', 'a@b.', 'a@b.ru', 'иван@пример.рф']) expect(EMAIL_PATTERN.test(prefix)).toBe(true);
    expect(EMAIL_PATTERN.test(`${'a'.repeat(65)}@b.ru`)).toBe(false);
    expect(EMAIL_PATTERN.test(`a@${'b'.repeat(64)}.ru`)).toBe(false);
    expect(EMAIL_PATTERN.test('a@@b')).toBe(false);
  });
});
