import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { object, optional, string } from 'superstruct';
import { DepartmentInput } from '../../../domain/company';
import { Button } from '../../../ui/button';
import { FormError, useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import type { Person } from '../structure';

/** The form's struct: the server's rule for the name; the head as the select's user id ('' for none). */
export const DepartmentFormStruct = object({
  name: DepartmentInput.schema.name,
  headUserId: optional(string()),
});

export interface DepartmentDraft {
  name: string;
  headUserId: string | null;
}

export interface DepartmentFormProps {
  initial?: DepartmentDraft;
  headCandidates: readonly Person[];
  isOnline: boolean;
  submitText: string;
  /** Stores it; a `FormError` it throws is shown on the form. */
  onSubmit: (draft: DepartmentDraft) => Promise<void>;
  onCancel?: () => void;
}

/** Name and head of a department: creating one, or renaming it and choosing its head. */
export function DepartmentForm({ initial, headCandidates, isOnline, submitText, onSubmit, onCancel }: DepartmentFormProps) {
  const intl = useIntl();
  const form = useForm({ struct: DepartmentFormStruct, initialValues: { name: initial?.name ?? '', headUserId: initial?.headUserId ?? '' } });
  const headOptions = useMemo(
    () =>
      headCandidates.flatMap((person) =>
        person.userId === null ? [] : [{ id: person.userId, title: person.position ? `${person.fullName}, ${person.position}` : person.fullName }],
      ),
    [headCandidates],
  );
  const label = {
    name: intl.formatMessage({ id: 'departments.form.name', defaultMessage: 'Department name' }),
    head: intl.formatMessage({ id: 'departments.form.head', defaultMessage: 'Head of the department' }),
  };

  const submit = form.handleSubmit(async (value) => {
    if (!isOnline) throw new FormError({ isOffline: true });
    const headUserId = value.headUserId === undefined || value.headUserId === '' ? null : value.headUserId;
    await onSubmit({ name: value.name.trim(), headUserId });
  });

  return (
    <form className="department-form" noValidate onSubmit={submit}>
      <TextField {...form.textField('name', label.name)} maxLength={200} autoComplete="off" />
      <Select
        {...form.selectField('headUserId', label.head)}
        options={headOptions}
        placeholder={intl.formatMessage({ id: 'departments.form.noHead', defaultMessage: 'No head' })}
        searchable={headOptions.length > 8}
        tip={
          headOptions.length === 0
            ? intl.formatMessage({ id: 'departments.form.noCandidates', defaultMessage: 'A head must have joined the platform: invite the person first.' })
            : intl.formatMessage({ id: 'departments.form.headTip', defaultMessage: 'The head reviews the department’s proposals. Only people who have joined can be chosen.' })
        }
      />
      <div className="department-form__actions">
        <Button type="submit" loading={form.isSubmitting}>
          {submitText}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel} disabled={form.isSubmitting}>
            <FormattedMessage id="departments.form.cancel" defaultMessage="Cancel" />
          </Button>
        )}
      </div>
    </form>
  );
}
