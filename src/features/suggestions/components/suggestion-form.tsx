import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { enums, object, optional, refine, string } from 'superstruct';
import { CURRENCIES, SUGGESTION_MAX_IMAGES, SuggestionInput, type Currency } from '../../../domain/suggestion';
import { Button } from '../../../ui/button';
import { FileUpload } from '../../../ui/file-upload/file-upload';
import { useKeptPhotos } from '../../../ui/file-upload/kept-photos';
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
  goalId: optional(string()),
});

/** The goal select's "none" (the kit's select takes no empty id). */
const NO_GOAL = 'none';

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
  /** The company's goals the proposal may serve (issue 12); none offered when empty or absent (a clarification). */
  goals?: readonly DepartmentOption[];
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
export function SuggestionForm({ companyId, departments, goals = [], initial, onSubmit }: SuggestionFormProps) {
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
      goalId: initial?.goalId ?? NO_GOAL,
    },
  });

  const photos = useKeptPhotos();

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
    goalId: intl.formatMessage({ id: 'suggestions.form.goal', defaultMessage: 'Company goal it serves (optional)' }),
    photos: intl.formatMessage({ id: 'suggestions.form.photos', defaultMessage: 'Photos' }),
  };

  const submit = form.handleSubmit(async (value) => {
    const photoInputs: PhotoInput[] = await photos.read();
    await onSubmit(
      {
        companyId,
        title: value.title.trim(),
        problem: value.problem.trim(),
        solution: value.solution.trim(),
        expectedEffect: value.expectedEffect.trim(),
        effectEstimate: value.estimate ? { amountMinor: toMinorUnits(value.estimate), currency: value.currency } : null,
        departmentId: value.departmentId,
        goalId: value.goalId && value.goalId !== NO_GOAL ? value.goalId : null,
      },
      photoInputs,
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
      {goals.length > 0 && (
        <Select
          {...form.selectField('goalId', label.goalId)}
          options={[{ id: NO_GOAL, title: intl.formatMessage({ id: 'suggestions.form.noGoal', defaultMessage: 'No particular goal' }) }, ...goals]}
          searchable={goals.length >= 8}
        />
      )}
      {isEditing ? (
        <p className="suggestion-form__note">
          <FormattedMessage id="suggestions.form.photosKept" defaultMessage="The photos stay as they were." />
        </p>
      ) : (
        <FileUpload
          label={label.photos}
          name="photos"
          {...photos.field}
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
