import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import { formatDecisionTime, formatMoney, formatRatio, signedAmountTextToMinor } from './format';

describe('the figures in words', () => {
  const inEnglish = createIntl({ locale: 'en', messages: en });
  const inRussian = createIntl({ locale: 'ru', messages: ru });

  it('writes money exactly, negative amounts too', () => {
    expect(formatMoney(inEnglish, 125_000_050, 'RUB').replace(/\s/g, ' ')).toBe('RUB 1,250,000.50');
    expect(formatMoney(inEnglish, -35_000_050, 'USD')).toBe('-$350,000.50');
    expect(formatMoney(inRussian, 125_000_050, 'RUB').replace(/\s/g, ' ')).toBe('1 250 000,50 ₽');
  });

  it('writes ratios as percents with one decimal, and none without a denominator', () => {
    expect(formatRatio(inEnglish, 1_250)).toBe('12.5%');
    expect(formatRatio(inEnglish, 25_000)).toBe('250.0%');
    expect(formatRatio(inRussian, 1_250)?.replace(/\s/g, ' ')).toBe('12,5 %');
    expect(formatRatio(inEnglish, null)).toBeNull();
  });

  it('writes the median time to a decision in hours up to two days, in days above', () => {
    expect(formatDecisionTime(inEnglish, 1)).toBe('1 hour');
    expect(formatDecisionTime(inEnglish, 5.4)).toBe('5 hours');
    expect(formatDecisionTime(inEnglish, 60)).toBe('2.5 days');
    expect(formatDecisionTime(inRussian, 22)).toBe('22 часа');
    expect(formatDecisionTime(inRussian, 120)).toBe('5 дней');
    expect(formatDecisionTime(inRussian, 24 * 21)).toBe('21 день');
  });

  it('reads signed amounts as people type them', () => {
    expect(signedAmountTextToMinor('-1 250,50')).toEqual({ ok: true, value: -125_050 });
    expect(signedAmountTextToMinor('\u2212300')).toEqual({ ok: true, value: -30_000 });
    expect(signedAmountTextToMinor('1250.5')).toEqual({ ok: true, value: 125_050 });
    expect(signedAmountTextToMinor('-0')).toEqual({ ok: true, value: 0 });
    expect(signedAmountTextToMinor('--5')).toEqual({ ok: false, code: 'invalid' });
    expect(signedAmountTextToMinor('-1,255')).toEqual({ ok: false, code: 'amountPrecision' });
  });
});
