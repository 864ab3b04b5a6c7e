import { FormattedMessage, useIntl } from 'react-intl';
import { object, refine, string } from 'superstruct';
import { GOAL_TEXT_MAX, GOAL_TITLE_MAX, GoalInput } from '../../../domain/goal';
import { filled } from '../../../domain/filled';
import { isCalendarDate } from '../../../domain/validation';
import { DatePicker } from '../../../ui/date-picker/date-picker';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import type { GoalFormData } from '../hooks';

/** A value >= 0 as typed: digits, optionally a decimal part after a point or a comma. */
const INDICATOR_VALUE_RE = /^\d{1,9}([.,]\d{1,3})?$/;

const fields = GoalInput.schema;

/**
 * The form's own struct: the server's rules for every field (GoalInput), the indicator's value and unit as two
 * flat fields, and the server's "end after start" rule named on the end date.
 */
export const GoalFormStruct = refine(
  object({
    direction: fields.direction,
    scope: fields.scope,
    description: fields.description,
    expectedResult: fields.expectedResult,
    indicatorValue: filled(refine(string(), 'invalid', (value) => INDICATOR_VALUE_RE.test(value.trim()))),
    indicatorUnitId: filled(fields.indicator.schema.unitId),
    ownerGoal: fields.ownerGoal,
    startDate: filled(fields.startDate),
    endDate: filled(fields.endDate),
    businessCustomerEmployeeId: filled(fields.businessCustomerEmployeeId),
    process: fields.process,
  }),
  'afterStart',
  // Only two real dates are compared: a missing or malformed one already shows its own error.
  (value) => !isCalendarDate(value.startDate) || !isCalendarDate(value.endDate) || value.endDate > value.startDate || { path: ['endDate'], key: 'endDate', refinement: 'afterStart' },
);

/** "12,5" -> 12.5. */
export function indicatorValueOf(text: string): number {
  return Number(text.trim().replace(',', '.'));
}

export interface GoalFormProps {
  data: GoalFormData;
  /** Editing: the goal's fields as they stand. */
  initial?: GoalInput;
  /** Stores the goal; a `FormError` it throws is shown on the form and the draft stays. */
  onSubmit: (input: GoalInput) => Promise<void>;
}

/** The goal form of issue 12: every field of GoalInput, checked by the server's own rules before it is stored. */
export function GoalForm({ data, initial, onSubmit }: GoalFormProps) {
  const intl = useIntl();
  const isEditing = initial !== undefined;
  const form = useForm({
    struct: GoalFormStruct,
    initialValues: {
      direction: initial?.direction ?? '',
      scope: initial?.scope ?? '',
      description: initial?.description ?? '',
      expectedResult: initial?.expectedResult ?? '',
      indicatorValue: initial ? String(initial.indicator.value) : '',
      indicatorUnitId: initial?.indicator.unitId ?? (data.units.length === 1 ? data.units[0]?.id : '') ?? '',
      ownerGoal: initial?.ownerGoal ?? '',
      startDate: initial?.startDate ?? '',
      endDate: initial?.endDate ?? '',
      businessCustomerEmployeeId: initial?.businessCustomerEmployeeId ?? '',
      process: initial?.process ?? '',
    },
  });

  const label = {
    direction: intl.formatMessage({ id: 'goals.form.direction', defaultMessage: 'Direction' }),
    scope: intl.formatMessage({ id: 'goals.form.scope', defaultMessage: 'Scope of improvement' }),
    description: intl.formatMessage({ id: 'goals.form.description', defaultMessage: 'Description' }),
    expectedResult: intl.formatMessage({ id: 'goals.form.expectedResult', defaultMessage: 'Expected result' }),
    indicatorValue: intl.formatMessage({ id: 'goals.form.indicatorValue', defaultMessage: 'Quantitative indicator' }),
    indicatorUnitId: intl.formatMessage({ id: 'goals.form.indicatorUnit', defaultMessage: 'Unit' }),
    ownerGoal: intl.formatMessage({ id: 'goals.form.ownerGoal', defaultMessage: 'Owner’s goal' }),
    startDate: intl.formatMessage({ id: 'goals.form.startDate', defaultMessage: 'Start date' }),
    endDate: intl.formatMessage({ id: 'goals.form.endDate', defaultMessage: 'End date' }),
    businessCustomerEmployeeId: intl.formatMessage({ id: 'goals.form.businessCustomer', defaultMessage: 'Business customer' }),
    process: intl.formatMessage({ id: 'goals.form.process', defaultMessage: 'Process to improve' }),
  };

  const dateField = (name: 'startDate' | 'endDate') => {
    const binding = form.selectField(name, label[name]);
    return (
      <DatePicker
        label={binding.label}
        name={name}
        value={binding.value === '' ? null : binding.value}
        onChange={(value) => binding.onChange(value ?? '')}
        onBlur={binding.onBlur}
        error={binding.error}
        required={binding.required}
        autoApply
      />
    );
  };

  const submit = form.handleSubmit(async (value) => {
    await onSubmit({
      direction: value.direction.trim(),
      scope: value.scope.trim(),
      description: value.description.trim(),
      expectedResult: value.expectedResult.trim(),
      indicator: { value: indicatorValueOf(value.indicatorValue), unitId: value.indicatorUnitId },
      ownerGoal: value.ownerGoal.trim(),
      startDate: value.startDate,
      endDate: value.endDate,
      businessCustomerEmployeeId: value.businessCustomerEmployeeId,
      process: value.process.trim(),
    });
  });

  return (
    <form className="goal-form" noValidate onSubmit={submit}>
      <TextField {...form.textField('direction', label.direction)} maxLength={GOAL_TITLE_MAX} />
      <TextField {...form.textField('scope', label.scope)} maxLength={GOAL_TITLE_MAX} />
      <Textarea {...form.textField('description', label.description)} maxLength={GOAL_TEXT_MAX} autoHeight />
      <Textarea {...form.textField('expectedResult', label.expectedResult)} maxLength={GOAL_TEXT_MAX} autoHeight />
      <div className="goal-form__row">
        <TextField {...form.textField('indicatorValue', label.indicatorValue)} inputMode="decimal" maxLength={13} />
        <Select
          {...form.selectField('indicatorUnitId', label.indicatorUnitId)}
          options={data.units}
          placeholder={intl.formatMessage({ id: 'goals.form.chooseUnit', defaultMessage: 'Choose a unit' })}
        />
      </div>
      <Textarea {...form.textField('ownerGoal', label.ownerGoal)} maxLength={GOAL_TEXT_MAX} autoHeight />
      <div className="goal-form__dates">
        {dateField('startDate')}
        {dateField('endDate')}
      </div>
      <Select
        {...form.selectField('businessCustomerEmployeeId', label.businessCustomerEmployeeId)}
        options={data.employees}
        searchable
        placeholder={intl.formatMessage({ id: 'goals.form.chooseCustomer', defaultMessage: 'Choose an employee' })}
        tip={
          data.employees.length === 0
            ? intl.formatMessage({ id: 'goals.form.noEmployees', defaultMessage: 'No employees on this device yet: connect once so they can load.' })
            : undefined
        }
      />
      <TextField {...form.textField('process', label.process)} maxLength={GOAL_TITLE_MAX} />
      <Button type="submit" loading={form.isSubmitting} block>
        {isEditing ? (
          <FormattedMessage id="goals.form.save" defaultMessage="Save the goal" />
        ) : (
          <FormattedMessage id="goals.form.submit" defaultMessage="Set the goal" />
        )}
      </Button>
    </form>
  );
}
