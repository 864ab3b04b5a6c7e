import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { object, optional, refine, string, trimmed, type Infer } from 'superstruct';
import { COMPANY_NAME_MAX, CompanyInput, EMPLOYEE_COUNT_MAX, LEGAL_FORMS, WEBSITE_MAX, companyInputErrors, type LegalForm } from '../../../domain/company';
import { TimeZone, deviceTimeZone } from '../../../domain/time-format';
import { Button } from '../../../ui/button';
import { FileUpload, type LoadImageFn, type UploadFn, type UploadItem } from '../../../ui/file-upload/file-upload';
import { FormError, useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { legalFormMessages } from '../messages';
import { timeZoneOptions } from '../time-zone';

const CompanyFormFields = object({
  legalForm: CompanyInput.schema.legalForm,
  name: CompanyInput.schema.name,
  // Empty says "fill in" before the server's INN rule says "not valid".
  inn: refine(
    refine(trimmed(string()), 'required', (value) => value.length > 0),
    'inn',
    (value) => CompanyInput.schema.inn.is(value),
  ),
  kpp: optional(string()),
  website: CompanyInput.schema.website,
  employeeCount: optional(refine(string(), 'invalid', (value) => /^\d{1,8}$/.test(value) && Number(value) >= 1 && Number(value) <= EMPLOYEE_COUNT_MAX)),
  // Always chosen here (the server's default is only for callers that name none).
  timeZone: TimeZone,
});
type CompanyFormFields = Infer<typeof CompanyFormFields>;

/** One rule across fields of `companyInputErrors`, reported on its own field under its own code. */
function crossField(code: string) {
  return (value: CompanyFormFields) => {
    const errors = companyInputErrors({ legalForm: value.legalForm, inn: value.inn ?? '', kpp: value.kpp });
    const field = Object.keys(errors).find((name) => errors[name] === code);
    return field === undefined ? true : { path: [field], message: code };
  };
}

/**
 * The form's struct: the server's field rules (CompanyInput) with the values as typed, and the rules across
 * fields of `companyInputErrors` (INN checksum by legal form, KPP for a legal entity only), each reported on
 * its own field so the error stands beside it. Superstruct names a failure after its refinement, so each
 * code is one refinement.
 */
export const CompanyFormStruct = refine(
  refine(refine(refine(CompanyFormFields, 'inn', crossField('inn')), 'kppRequired', crossField('kppRequired')), 'kpp', crossField('kpp')),
  'kppNotAllowed',
  crossField('kppNotAllowed'),
);
export type CompanyFormValue = Infer<typeof CompanyFormStruct>;

/** The body of `POST /companies` from what the form validated. */
export function toCompanyInput(value: CompanyFormValue, logoImageId: string | null): CompanyInput {
  const website = value.website?.trim() ?? '';
  return {
    legalForm: value.legalForm,
    name: value.name.trim(),
    inn: value.inn.trim(),
    ...(value.legalForm === 'LEGAL_ENTITY' ? { kpp: (value.kpp ?? '').trim().toUpperCase() } : {}),
    ...(website !== '' ? { website } : {}),
    ...(value.employeeCount ? { employeeCount: Number(value.employeeCount) } : {}),
    ...(logoImageId ? { logoImageId } : {}),
    timeZone: value.timeZone,
  };
}

/** What the form may start with besides its defaults: the details given at registration (see registration-prefill.ts). */
export interface CompanyFormPrefill {
  legalForm: LegalForm;
  name: string;
  inn: string;
}

export interface CompanyFormProps {
  /** Sends the company; a `FormError` it throws is shown on the form and the entries stay. */
  onSubmit: (input: CompanyInput) => Promise<void>;
  upload: UploadFn;
  loadImage?: LoadImageFn;
  /** Filled in at the start and checked at once, as if the user had typed them; the user may change them. */
  prefill?: CompanyFormPrefill | null;
}

/** A new company (spec section 3): legal form, name, INN, KPP (legal entities), website, staff count, logo. */
export function CompanyForm({ onSubmit, upload, loadImage, prefill = null }: CompanyFormProps) {
  const intl = useIntl();
  const legendId = useId();
  // A new company starts in the zone of the device it is created on (its owner's, most likely). Asked once:
  // the form reads its initial values on mount only, and each asking builds a date formatter.
  const [initialZone] = useState(deviceTimeZone);
  const form = useForm({
    struct: CompanyFormStruct,
    initialValues: { legalForm: 'LEGAL_ENTITY', name: '', inn: '', kpp: '', website: '', employeeCount: '', timeZone: initialZone },
  });
  // The details given at registration go in once, as a model update (validated like typed values); a later
  // change of the prop (the user reloaded in another tab) does not overwrite what the user typed since.
  const prefilled = useRef(false);
  useEffect(() => {
    if (prefilled.current || prefill === null) return;
    prefilled.current = true;
    form.setValues({ legalForm: prefill.legalForm, name: prefill.name, ...(prefill.inn !== '' ? { inn: prefill.inn } : {}) });
  }, [prefill, form]);
  const zoneOptions = useMemo(
    () =>
      timeZoneOptions(intl.locale, {
        russia: intl.formatMessage({ id: 'companies.form.timeZoneRussia', defaultMessage: 'Russia' }),
        all: intl.formatMessage({ id: 'companies.form.timeZoneAll', defaultMessage: 'All time zones' }),
      }),
    [intl],
  );
  const [logoIds, setLogoIds] = useState<string[]>([]);
  const [logoItems, setLogoItems] = useState<readonly UploadItem[]>([]);
  const legalForm: LegalForm = form.values.legalForm === 'ENTREPRENEUR' ? 'ENTREPRENEUR' : 'LEGAL_ENTITY';
  const isLegalEntity = legalForm === 'LEGAL_ENTITY';

  const label = {
    legalForm: intl.formatMessage({ id: 'companies.form.legalForm', defaultMessage: 'Legal form' }),
    name: intl.formatMessage({ id: 'companies.form.name', defaultMessage: 'Company name' }),
    inn: intl.formatMessage({ id: 'companies.form.inn', defaultMessage: 'Taxpayer number (INN)' }),
    kpp: intl.formatMessage({ id: 'companies.form.kpp', defaultMessage: 'Tax registration reason code (KPP)' }),
    website: intl.formatMessage({ id: 'companies.form.website', defaultMessage: 'Website' }),
    employeeCount: intl.formatMessage({ id: 'companies.form.employeeCount', defaultMessage: 'Number of employees' }),
    logo: intl.formatMessage({ id: 'companies.form.logo', defaultMessage: 'Logo' }),
    timeZone: intl.formatMessage({ id: 'companies.form.timeZone', defaultMessage: 'Time zone' }),
  };

  const chooseLegalForm = (next: LegalForm) => {
    if (next === legalForm) return;
    // The INN rule depends on the legal form: check a typed INN again; an entrepreneur has no KPP.
    const inn = form.values.inn ?? '';
    form.setValues({ legalForm: next, kpp: '', ...(inn !== '' ? { inn } : {}) });
  };

  const submit = form.handleSubmit(async (value) => {
    if (logoItems.some((item) => item.status === 'pending' || item.status === 'uploading')) {
      throw new FormError({
        message: intl.formatMessage({ id: 'companies.form.logoUploading', defaultMessage: 'The logo is still uploading: wait a moment and send again.' }),
      });
    }
    await onSubmit(toCompanyInput(value, logoIds[0] ?? null));
  });

  const kppField = form.textField('kpp', label.kpp);
  const innTip = isLegalEntity
    ? intl.formatMessage({ id: 'companies.form.innTipLegalEntity', defaultMessage: '10 digits' })
    : intl.formatMessage({ id: 'companies.form.innTipEntrepreneur', defaultMessage: '12 digits' });

  return (
    <form className="company-form" noValidate onSubmit={submit}>
      <fieldset className="company-form__legal-form" aria-labelledby={legendId}>
        <legend id={legendId} className="company-form__legend">
          {label.legalForm}
        </legend>
        <div className="company-form__choices">
          {LEGAL_FORMS.map((option) => (
            <label key={option} className={`company-form__choice${legalForm === option ? ' company-form__choice--checked' : ''}`}>
              <input
                type="radio"
                name="legalForm"
                value={option}
                checked={legalForm === option}
                onChange={(event) => {
                  if (event.currentTarget.checked) chooseLegalForm(option);
                }}
              />
              <span>{intl.formatMessage(legalFormMessages[option])}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <TextField {...form.textField('name', label.name)} maxLength={COMPANY_NAME_MAX} autoComplete="organization" />
      <div className="company-form__row">
        <TextField {...form.textField('inn', label.inn)} validate="int" maxLength={isLegalEntity ? 10 : 12} inputMode="numeric" tip={innTip} />
        {isLegalEntity && (
          <TextField
            {...kppField}
            onChange={(typed) => kppField.onChange(typed.toUpperCase())}
            required
            maxLength={9}
            tip={intl.formatMessage({ id: 'companies.form.kppTip', defaultMessage: '9 characters' })}
          />
        )}
      </div>
      <TextField
        {...form.textField('website', label.website)}
        maxLength={WEBSITE_MAX}
        inputMode="url"
        autoComplete="url"
        placeholder="example.ru"
      />
      <TextField {...form.textField('employeeCount', label.employeeCount)} validate="int" inputMode="numeric" maxLength={8} />
      <Select
        {...form.selectField('timeZone', label.timeZone)}
        options={zoneOptions}
        searchable
        tip={intl.formatMessage({
          id: 'companies.form.timeZoneTip',
          defaultMessage: "The company's invoice, registries and messages give dates and times in this zone.",
        })}
      />
      <FileUpload
        label={label.logo}
        name="logo"
        value={logoIds}
        onChange={setLogoIds}
        onItemsChange={setLogoItems}
        upload={upload}
        loadImage={loadImage}
        max={1}
        tip={intl.formatMessage({ id: 'companies.form.logoTip', defaultMessage: 'PNG or JPEG, one image (optional).' })}
      />
      <Button type="submit" loading={form.isSubmitting} block>
        <FormattedMessage id="companies.form.submit" defaultMessage="Add the company" />
      </Button>
    </form>
  );
}
