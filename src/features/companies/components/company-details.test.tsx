import { cleanup, render } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../../locales/en.json';
import ru from '../../../../locales/ru.json';
import type { CompanyRow } from '../../../domain/suggestion';
import { CompanyDetails } from './company-details';

const originalTz = process.env.TZ;
afterEach(() => {
  cleanup();
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

// Created at 22:30 UTC on 14 March 2025: 15 March in Vladivostok, 14 March in New York.
const COMPANY: CompanyRow = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'ООО «Восток»',
  inn: '7707083893',
  kpp: '770701001',
  legalForm: 'LEGAL_ENTITY',
  website: null,
  employeeCount: null,
  logoImageId: null,
  timeZone: 'Asia/Vladivostok',
  verificationStatus: 'UNVERIFIED',
  invoiceNumber: 'INV-1005',
  paymentReportedAt: null,
  verificationDecidedAt: null,
  verificationComment: null,
  createdAt: '2025-03-14T22:30:00.000Z',
  updatedAt: '2025-03-14T22:30:00.000Z',
};

/** The details as a device in `deviceZone` shows them, in `locale`: the text of each `data-field`. */
function shownOn(deviceZone: string, company: CompanyRow, locale: 'en' | 'ru' = 'en'): Record<string, string> {
  process.env.TZ = deviceZone;
  expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(deviceZone);
  const { container, unmount } = render(
    <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en}>
      <CompanyDetails company={company} withPayment />
    </IntlProvider>,
  );
  const fields: Record<string, string> = {};
  for (const element of container.querySelectorAll('[data-field]')) fields[element.getAttribute('data-field') ?? ''] = element.textContent ?? '';
  unmount();
  return fields;
}

describe("the invoice's date on the verification page", () => {
  it('is the date the PDF prints, in the company’s zone and naming it, whatever the device’s zone', () => {
    const inNewYork = shownOn('America/New_York', COMPANY);
    const inVladivostok = shownOn('Asia/Vladivostok', COMPANY);
    expect(inNewYork.invoiceDate).toBe('15.03.2025 (Asia/Vladivostok, UTC+10)');
    expect(inVladivostok).toEqual(inNewYork);
    expect(shownOn('America/New_York', COMPANY, 'ru').invoiceDate).toBe('15.03.2025 (Asia/Vladivostok, UTC+10)');
    expect(inNewYork.timeZone).toMatch(/^Asia\/Vladivostok \(UTC\+10\)$/);
  });

  it('reads a company row stored before time zones existed as Moscow time, as the server does', () => {
    const { timeZone: _zone, ...older } = COMPANY;
    expect(shownOn('America/New_York', older).invoiceDate).toBe('15.03.2025 (Europe/Moscow, UTC+3)');
  });
});
