import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { enums, object, optional, refine, string } from 'superstruct';
import { CURRENCIES, SUGGESTION_MAX_IMAGES, SuggestionInput, type Currency } from '../../../domain/suggestion';
import { Button } from '../../../ui/button';
import { FileUpload, type LoadImageFn, type UploadFn } from '../../../ui/file-upload/file-upload';
import { useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import type { DepartmentOption } from '../hooks';
import type { PhotoInput, SuggestionDraft } from '../store';

/** An amount in major units as the currency mask gives it: digits, at most two decimals. */
const AMOUNT_RE = /^\d{1,13}(\.\d{0,2})?$/;

/** The form's own struct: the server's rules for the texts and the department, plus the estimate as typed. */
export const SuggestionFormStruct = object({
  title: SuggestionInput.schema.title,
  problem: SuggestionInput.schema.problem,
  solution: SuggestionInput.schema.solution,
  expectedEffect: SuggestionInput.schema.expectedEffect,
  estimate: optional(refine(string(), 'invalid', (value) => AMOUNT_RE.test(value))),
  currency: enums(CURRENCIES),
  departmentId: SuggestionInput.schema.departmentId,
});

/** "1234.5" -> 123450 (minor units, without floating point). */
export function toMinorUnits(amount: string): number {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

function toAmount(minor: number): string {
  const whole = Math.floor(minor / 100);
  const cents = minor % 100;
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0')}`;
}

export interface SuggestionFormProps {
  companyId: string;
  departments: readonly DepartmentOption[];
  /** Editing a proposal that waits to be sent: its text (photos stay as they were). */
  initial?: SuggestionDraft;
  /** Stores the proposal; a `FormError` it throws is shown on the form and the draft stays. */
  onSubmit: (draft: SuggestionDraft, photos: PhotoInput[]) => Promise<void>;
}

/**
 * The proposal form of issue 4. Photos never go to the network from here: the upload control hands each
 * downscaled photo to a keeper in this form (an honest "ready" at once, online or not), and on submit they
 * are stored on the device with the proposal; the replayer uploads them before sending it.
 */
export function SuggestionForm({ companyId, departments, initial, onSubmit }: SuggestionFormProps) {
  const intl = useIntl();
  const isEditing = initial !== undefined;
  const form = useForm({
    struct: SuggestionFormStruct,
    initialValues: {
      title: initial?.title ?? '',
      problem: initial?.problem ?? '',
      solution: initial?.solution ?? '',
      expectedEffect: initial?.expectedEffect ?? '',
      estimate: initial?.effectEstimate ? toAmount(initial.effectEstimate.amountMinor) : '',
      currency: initial?.effectEstimate?.currency ?? 'RUB',
      departmentId: initial?.departmentId ?? '',
    },
  });

  const [kept, setKept] = useState<ReadonlyMap<string, File>>(() => new Map());
  const [photoIds, setPhotoIds] = useState<string[]>([]);
  // The object URLs handed to the control as links, revoked when the form goes.
  const links = useRef<string[]>([]);
  useEffect(() => {
    const made = links.current;
    return () => {
      for (const link of made.splice(0)) URL.revokeObjectURL(link);
    };
  }, []);
  const keepPhoto = useCallback<UploadFn>((file) => {
    const imageId = crypto.randomUUID();
    setKept((previous) => new Map(previous).set(imageId, file));
    // An object URL of the file itself, so the thumbnail needs nothing but this answer.
    const imageLink = URL.createObjectURL(file);
    links.current.push(imageLink);
    return Promise.resolve({ status: 200, data: { imageId, imageLink, name: file.name } });
  }, []);
  // The link is already an object URL of the kept file; the control revokes what it gets, so hand over a copy.
  const showPhoto = useCallback<LoadImageFn>((link) => fetch(link).then(async (response) => URL.createObjectURL(await response.blob())), []);

  const currencies = useMemo(() => CURRENCIES.map((id) => ({ id, title: id })), []);
  const currency = (CURRENCIES as readonly string[]).includes(form.values.currency ?? '') ? (form.values.currency as Currency) : 'RUB';

  const label = {
    title: intl.formatMessage({ id: 'suggestions.form.title', defaultMessage: 'Title' }),
    problem: intl.formatMessage({ id: 'suggestions.form.problem', defaultMessage: 'Problem' }),
    solution: intl.formatMessage({ id: 'suggestions.form.solution', defaultMessage: 'Proposed solution' }),
    expectedEffect: intl.formatMessage({ id: 'suggestions.form.expectedEffect', defaultMessage: 'Expected effect' }),
    estimate: intl.formatMessage({ id: 'suggestions.form.estimate', defaultMessage: 'Estimated effect (optional)' }),
    currency: intl.formatMessage({ id: 'suggestions.form.currency', defaultMessage: 'Currency' }),
    departmentId: intl.formatMessage({ id: 'suggestions.form.department', defaultMessage: 'Department' }),
    photos: intl.formatMessage({ id: 'suggestions.form.photos', defaultMessage: 'Photos' }),
  };

  const submit = form.handleSubmit(async (value) => {
    const photos: PhotoInput[] = [];
    for (const id of photoIds) {
      const file = kept.get(id);
      if (file) photos.push({ data: await file.arrayBuffer(), type: file.type, name: file.name });
    }
    await onSubmit(
      {
        companyId,
        title: value.title.trim(),
        problem: value.problem.trim(),
        solution: value.solution.trim(),
        expectedEffect: value.expectedEffect.trim(),
        effectEstimate: value.estimate ? { amountMinor: toMinorUnits(value.estimate), currency: value.currency } : null,
        departmentId: value.departmentId,
      },
      photos,
    );
  });

  return (
    <form className="suggestion-form" noValidate onSubmit={submit}>
      <TextField {...form.textField('title', label.title)} maxLength={200} />
      <Textarea {...form.textField('problem', label.problem)} autoHeight />
      <Textarea {...form.textField('solution', label.solution)} autoHeight />
      <Textarea {...form.textField('expectedEffect', label.expectedEffect)} autoHeight />
      <div className="suggestion-form__row">
        <TextField {...form.textField('estimate', label.estimate)} mask={{ currency }} inputMode="decimal" />
        <Select {...form.selectField('currency', label.currency)} options={currencies} />
      </div>
      <Select
        {...form.selectField('departmentId', label.departmentId)}
        options={departments}
        placeholder={intl.formatMessage({ id: 'suggestions.form.chooseDepartment', defaultMessage: 'Choose a department' })}
        tip={
          departments.length === 0
            ? intl.formatMessage({ id: 'suggestions.form.noDepartments', defaultMessage: 'No departments on this device yet: connect once so they can load.' })
            : undefined
        }
      />
      {isEditing ? (
        <p className="suggestion-form__note">
          <FormattedMessage id="suggestions.form.photosKept" defaultMessage="The photos stay as they were." />
        </p>
      ) : (
        <FileUpload
          label={label.photos}
          name="photos"
          value={photoIds}
          onChange={setPhotoIds}
          upload={keepPhoto}
          loadImage={showPhoto}
          finishedText={intl.formatMessage({ id: 'suggestions.form.photoKept', defaultMessage: 'Ready: sent with the proposal' })}
          max={SUGGESTION_MAX_IMAGES}
          tip={intl.formatMessage({
            id: 'suggestions.form.photosTip',
            defaultMessage: 'PNG or JPEG, up to 3. They are kept on this device and sent with the proposal, also when you are offline now.',
          })}
        />
      )}
      <Button type="submit" loading={form.isSubmitting} block>
        {isEditing ? (
          <FormattedMessage id="suggestions.form.resend" defaultMessage="Save and send again" />
        ) : (
          <FormattedMessage id="suggestions.form.submit" defaultMessage="Submit the proposal" />
        )}
      </Button>
    </form>
  );
}
