import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../../../locales/en.json';
import { countDateFormatters } from '../../../../tests/unit/support/date-formatters';
import type { CompanyInput } from '../../../domain/company';
import { collectErrorCodes } from '../../../ui/form';
import { DialogProvider } from '../../../ui/dialog';
import type { UploadFn } from '../../../ui/file-upload/types';
import { CompanyForm, CompanyFormStruct, type CompanyFormPrefill } from './company-form';

// The device's own zone decides the form's default: pin it, so the tests read the same anywhere.
const originalTz = process.env.TZ;
beforeEach(() => {
  process.env.TZ = 'Asia/Vladivostok';
});
afterEach(() => {
  cleanup();
  if (originalTz === undefined) delete process.env.TZ;
  else process.env.TZ = originalTz;
});

// Published numbers: Sberbank's INN (a legal entity) and a valid 12-digit INN of a person.
const LEGAL_ENTITY_INN = '7707083893';
const ENTREPRENEUR_INN = '500100732259';

const noUpload: UploadFn = () => Promise.resolve(null);

function renderForm(onSubmit: (input: CompanyInput) => Promise<void>, upload: UploadFn = noUpload, prefill: CompanyFormPrefill | null = null) {
  render(
    <IntlProvider locale="en" messages={en}>
      <DialogProvider>
        <CompanyForm onSubmit={onSubmit} upload={upload} prefill={prefill} />
      </DialogProvider>
    </IntlProvider>,
  );
}

/** The error shown beside a field: the element its aria-describedby points at. */
function errorBeside(field: HTMLElement): string | null {
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  const ids = field.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim() || null;
}

const field = (label: RegExp) => screen.getByLabelText(label);

async function typeInto(user: UserEvent, label: RegExp, text: string) {
  const input = field(label);
  await user.clear(input);
  await user.type(input, text);
  await user.tab();
}

describe('the company form: rules of each field and across fields', () => {
  it('knows the rules without a screen: INN checksum by legal form, KPP only for a legal entity', () => {
    const base = { legalForm: 'LEGAL_ENTITY', name: 'Acme', inn: LEGAL_ENTITY_INN, kpp: '770701001', website: '', employeeCount: '', timeZone: 'Europe/Moscow' };
    expect(collectErrorCodes(CompanyFormStruct, base)).toEqual({});
    expect(collectErrorCodes(CompanyFormStruct, { ...base, inn: '7707083894' })).toEqual({ inn: 'inn' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, inn: '77070838' })).toEqual({ inn: 'inn' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, kpp: '' })).toEqual({ kpp: 'kppRequired' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, kpp: '77070100' })).toEqual({ kpp: 'kpp' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, inn: ENTREPRENEUR_INN })).toEqual({ inn: 'inn' });
    const entrepreneur = { ...base, legalForm: 'ENTREPRENEUR', inn: ENTREPRENEUR_INN, kpp: '' };
    expect(collectErrorCodes(CompanyFormStruct, entrepreneur)).toEqual({});
    expect(collectErrorCodes(CompanyFormStruct, { ...entrepreneur, inn: LEGAL_ENTITY_INN })).toEqual({ inn: 'inn' });
    expect(collectErrorCodes(CompanyFormStruct, { ...entrepreneur, kpp: '770701001' })).toEqual({ kpp: 'kppNotAllowed' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, name: '   ' })).toEqual({ name: 'required' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, website: 'not a site' })).toEqual({ website: 'website' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, employeeCount: '0' })).toEqual({ employeeCount: 'invalid' });
    expect(collectErrorCodes(CompanyFormStruct, { ...base, timeZone: 'Mars/Olympus_Mons' })).toEqual({ timeZone: 'timeZone' });
  });

  it('sends nothing and shows each error beside its field when the required fields are empty', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn(() => Promise.resolve());
    renderForm(onSubmit);
    await user.click(screen.getByRole('button', { name: 'Add the company' }));
    await waitFor(() => expect(errorBeside(field(/^Company name/))).toBe('Fill in this field.'));
    expect(errorBeside(field(/^Taxpayer number/))).toBe('Fill in this field.');
    expect(errorBeside(field(/^Tax registration reason code/))).toMatch(/legal entity needs its tax code/);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows a wrong INN checksum beside the INN when the user leaves the field, and clears it once the INN is right', async () => {
    const user = userEvent.setup();
    renderForm(() => Promise.resolve());
    await typeInto(user, /^Taxpayer number/, '7707083894');
    expect(errorBeside(field(/^Taxpayer number/))).toMatch(/taxpayer number is not valid/);
    await typeInto(user, /^Taxpayer number/, LEGAL_ENTITY_INN);
    expect(errorBeside(field(/^Taxpayer number/))).toBeNull();
  });

  it('checks a typed INN again under the other legal form and hides the KPP for an entrepreneur', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_input: CompanyInput) => Promise.resolve());
    renderForm(onSubmit);
    await typeInto(user, /^Company name/, 'IP Petrov');
    await typeInto(user, /^Taxpayer number/, LEGAL_ENTITY_INN);
    expect(errorBeside(field(/^Taxpayer number/))).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Individual entrepreneur' }));
    await waitFor(() => expect(errorBeside(field(/^Taxpayer number/))).toMatch(/taxpayer number is not valid/));
    expect(screen.queryByLabelText(/^Tax registration reason code/)).toBeNull();

    await typeInto(user, /^Taxpayer number/, ENTREPRENEUR_INN);
    await user.click(screen.getByRole('button', { name: 'Add the company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ legalForm: 'ENTREPRENEUR', name: 'IP Petrov', inn: ENTREPRENEUR_INN, timeZone: 'Asia/Vladivostok' });
  });

  it('sends a legal entity with its KPP in capitals, the website, the number of employees and the uploaded logo', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_input: CompanyInput) => Promise.resolve());
    const logoId = '0b3f9d5e-8c1a-4f2b-9a7d-2e6c4b1a0f3d';
    const upload = vi.fn<UploadFn>(() => Promise.resolve({ status: 200, data: { imageId: logoId, imageLink: '/uploads/logo.png', name: 'logo.png' } }));
    renderForm(onSubmit, upload);
    await typeInto(user, /^Company name/, '  Acme Works LLC ');
    await typeInto(user, /^Taxpayer number/, LEGAL_ENTITY_INN);
    await typeInto(user, /^Tax registration reason code/, '7707ab001');
    await typeInto(user, /^Website/, 'acme.example.ru');
    await typeInto(user, /^Number of employees/, '250');
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    await user.upload(input, new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(upload).toHaveBeenCalledOnce());
    await screen.findByText('Uploaded');

    await user.click(screen.getByRole('button', { name: 'Add the company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      legalForm: 'LEGAL_ENTITY',
      name: 'Acme Works LLC',
      inn: LEGAL_ENTITY_INN,
      kpp: '7707AB001',
      website: 'acme.example.ru',
      employeeCount: 250,
      logoImageId: logoId,
      timeZone: 'Asia/Vladivostok',
    });
  });

  it('puts the server refusal of a taken INN beside the INN and keeps what was typed', async () => {
    const user = userEvent.setup();
    const { FormError } = await import('../../../ui/form');
    renderForm(() => Promise.reject(new FormError({ message: 'Validation failed', fieldErrors: { inn: 'A company with this INN is already registered.' } })));
    await typeInto(user, /^Company name/, 'Acme');
    await typeInto(user, /^Taxpayer number/, LEGAL_ENTITY_INN);
    await typeInto(user, /^Tax registration reason code/, '770701001');
    await user.click(screen.getByRole('button', { name: 'Add the company' }));
    await waitFor(() => expect(errorBeside(field(/^Taxpayer number/))).toBe('A company with this INN is already registered.'));
    expect((field(/^Company name/) as HTMLInputElement).value).toBe('Acme');
  });
});

describe("the company's time zone", () => {
  it("starts on the device's zone, lists Russia's zones first, and sends the zone chosen", async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_input: CompanyInput) => Promise.resolve());
    renderForm(onSubmit);
    const zone = screen.getByRole('combobox', { name: /^Time zone/ });
    expect(document.querySelector<HTMLInputElement>('input[type="hidden"][name="timeZone"]')?.value).toBe('Asia/Vladivostok');

    await user.click(zone);
    const titles = screen.getAllByRole('option').map((option) => option.textContent ?? '');
    expect(titles.slice(0, 3)).toEqual([
      expect.stringMatching(/^Europe\/Kaliningrad \(UTC\+2\)/),
      expect.stringMatching(/^Europe\/Moscow \(UTC\+3\) — Moscow Standard Time$/),
      expect.stringMatching(/^Europe\/Samara \(UTC\+4\)/),
    ]);
    // Every other zone of the device follows, once each.
    expect(titles.length).toBeGreaterThan(300);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).toContainEqual('America/New_York (UTC-5)');

    await user.click(screen.getByRole('option', { name: /^Europe\/Samara/ }));
    await typeInto(user, /^Company name/, 'Acme');
    await typeInto(user, /^Taxpayer number/, LEGAL_ENTITY_INN);
    await typeInto(user, /^Tax registration reason code/, '770701001');
    await user.click(screen.getByRole('button', { name: 'Add the company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ name: 'Acme', timeZone: 'Europe/Samara' });
  });

  it('builds no date formatter to render again, and only the one that reads the device zone for a second form', () => {
    const form = () => (
      <IntlProvider locale="en" messages={en}>
        <DialogProvider>
          <CompanyForm onSubmit={() => Promise.resolve()} upload={noUpload} prefill={null} />
        </DialogProvider>
      </IntlProvider>
    );
    const { rerender, unmount } = render(form());
    expect(countDateFormatters(() => rerender(form()))).toBe(0);
    unmount();
    // The device's zone is read again: the device may have moved since the first form.
    expect(countDateFormatters(() => render(form()))).toBe(1);
  });
});

describe('the details given at registration', () => {
  it('fills in the name and INN, which are sent unless the user changes them', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn((_input: CompanyInput) => Promise.resolve());
    renderForm(onSubmit, noUpload, { legalForm: 'LEGAL_ENTITY', name: 'ООО «Ромашка»', inn: LEGAL_ENTITY_INN });
    await waitFor(() => expect((field(/^Company name/) as HTMLInputElement).value).toBe('ООО «Ромашка»'));
    expect((field(/^Taxpayer number/) as HTMLInputElement).value).toBe(LEGAL_ENTITY_INN);
    expect(errorBeside(field(/^Taxpayer number/))).toBeNull();
    await typeInto(user, /^Tax registration reason code/, '770701001');
    await user.click(screen.getByRole('button', { name: 'Add the company' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ legalForm: 'LEGAL_ENTITY', name: 'ООО «Ромашка»', inn: LEGAL_ENTITY_INN, kpp: '770701001', timeZone: 'Asia/Vladivostok' });
  });

  it("chooses the entrepreneur's form for a 12-digit INN and checks what was filled in at once", async () => {
    renderForm(() => Promise.resolve(), noUpload, { legalForm: 'ENTREPRENEUR', name: 'ИП Петров', inn: ENTREPRENEUR_INN });
    await waitFor(() => expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Individual entrepreneur' }).checked).toBe(true));
    expect(screen.queryByLabelText(/^Tax registration reason code/)).toBeNull();
    expect(errorBeside(field(/^Taxpayer number/))).toBeNull();
    cleanup();

    // A registration INN this legal form refuses is shown wrong beside the field before anything is sent.
    renderForm(() => Promise.resolve(), noUpload, { legalForm: 'LEGAL_ENTITY', name: 'Ромашка', inn: '7707083894' });
    await waitFor(() => expect(errorBeside(field(/^Taxpayer number/))).toMatch(/taxpayer number is not valid/));
  });
});
