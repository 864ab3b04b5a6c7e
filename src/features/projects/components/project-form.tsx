// The project form (issue 12): every field of ProjectInput a project manager writes. The flat fields go through the
// UI kit's `useForm` with a struct made of ProjectInput's own rules plus the text parsers of money.ts (a profit
// percentage typed as '12,5', an amount typed as '1 000,50': never floats); the goals (a multi-select) and the
// team (rows of employee and role) are kept beside it and checked on submit. Photos never go to the network from
// here: like the proposal form, each downscaled photo is kept in the form and handed to the store on submit.
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { enums, object, optional, refine, size, string, type Struct } from 'superstruct';
import { amountTextToMinor, basisPointsToPercentText, minorToAmountText, percentToBasisPoints } from '../../../domain/money';
import {
  EFFECT_REPEATABILITIES,
  PROJECT_MAX_GOALS,
  PROJECT_MAX_IMAGES,
  PROJECT_MAX_TEAM,
  PROJECT_ROLE_MAX,
  PROJECT_TYPES,
  ProjectInput,
  REPORTING_FREQUENCIES,
} from '../../../domain/project';
import { filled } from '../../../domain/filled';
import { CalendarDate } from '../../../domain/validation';
import { Button } from '../../../ui/button';
import { DatePicker } from '../../../ui/date-picker/date-picker';
import { FileUpload } from '../../../ui/file-upload/file-upload';
import { useKeptPhotos } from '../../../ui/file-upload/kept-photos';
import { formatValidationError, useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import type { ProjectDraft, ProjectPhotoInput } from '../store';
import { PROJECT_FORM_MESSAGES as M } from './project-form-messages';

const CURRENCY_CODES = ['RUB', 'USD', 'AUD'] as const;
/** A metric's value as typed: digits with one ',' or '.'. */
const METRIC_RE = /^\d{1,12}(?:[.,]\d{1,6})?$/;

/** Reads a metric's value ('12,5' -> 12.5); null when it is not a number of the form. */
export function metricValueOf(text: string): number | null {
  const trimmed = text.trim();
  return METRIC_RE.test(trimmed) ? Number(trimmed.replace(',', '.')) : null;
}

/**
 * A text refined by a parser of money.ts: each code it answers (`invalid`, `percentRange`, `amountPrecision`...)
 * is a refinement of its own, since superstruct names a failure after the refinement that made it.
 */
function parsedText(parse: (text: string) => { ok: true } | { ok: false; code: string }, codes: readonly string[]): Struct<string, null> {
  return codes.reduce<Struct<string, null>>(
    (struct, code) =>
      refine(struct, code, (value) => {
        const result = parse(value);
        return result.ok || result.code !== code;
      }),
    string(),
  );
}

const metricValue = refine(string(), 'invalid', (value) => metricValueOf(value) !== null);

/**
 * The form's struct: ProjectInput's rules for the texts, choices and dates, the profit percentage and the maximum
 * as typed (parsed by money.ts), the metrics as value and unit (a unit is required with a value and a value with
 * a unit).
 */
export const ProjectFormStruct = refine(
  object({
    name: ProjectInput.schema.name,
    problem: ProjectInput.schema.problem,
    type: enums(PROJECT_TYPES),
    businessCustomerEmployeeId: optional(string()),
    baselineValue: optional(metricValue),
    baselineUnitId: optional(string()),
    targetValue: optional(metricValue),
    targetUnitId: optional(string()),
    completionDate: filled(CalendarDate),
    reportingFrequency: enums(REPORTING_FREQUENCIES),
    postMonitoringPeriodicity: enums(REPORTING_FREQUENCIES),
    projectManagerEmployeeId: filled(size(string(), 1, 64)),
    currency: enums(CURRENCY_CODES),
    profitPercent: filled(parsedText(percentToBasisPoints, ['invalid', 'percentPrecision', 'percentRange'])),
    maxPerProject: optional(parsedText(amountTextToMinor, ['invalid', 'amountPrecision', 'amountRange'])),
    effectRepeatability: enums(EFFECT_REPEATABILITIES),
  }),
  'metric',
  (value) => {
    const failures: { path: string[]; refinement: string; message: string }[] = [];
    for (const [valueField, unitField] of [
      ['baselineValue', 'baselineUnitId'],
      ['targetValue', 'targetUnitId'],
    ] as const) {
      const hasValue = (value[valueField] ?? '').trim() !== '';
      const hasUnit = (value[unitField] ?? '') !== '';
      if (hasValue && !hasUnit) failures.push({ path: [unitField], refinement: 'required', message: 'required' });
      if (hasUnit && !hasValue) failures.push({ path: [valueField], refinement: 'required', message: 'required' });
    }
    return failures.length === 0 ? true : failures;
  },
);

export interface EmployeeOption {
  id: string;
  /** 'Фамилия Имя Отчество'. */
  title: string;
  serviceNumber: string | null;
}

export interface Option {
  id: string;
  title: string;
}

export interface ProjectFormOptions {
  /** The company's active employees, by name. */
  employees: readonly EmployeeOption[];
  /** The company's goals. */
  goals: readonly Option[];
  /** Units of type BASE_INDICATOR. */
  units: readonly Option[];
}

export interface ProjectFormProps {
  options: ProjectFormOptions;
  /** Editing: the project's fields as they stand (photos stay as they are). */
  initial?: ProjectDraft;
  /** A new project: the name and problem to start from (a carried proposal's title and problem). */
  prefill?: { name: string; problem: string };
  /** The default project manager of a new project: the user's own employee record. */
  defaultManagerEmployeeId?: string | null;
  /** How many photos come with the carried proposal (they are not uploaded again). */
  carriedPhotos?: number;
  /** The calendar's language. */
  locale: 'ru' | 'en';
  /** Stores the project; a `FormError` it throws is shown on the form and the draft stays. */
  onSubmit: (draft: ProjectDraft, photos: ProjectPhotoInput[]) => Promise<void>;
}

interface TeamRow {
  /** A key of the row on screen only. */
  key: string;
  employeeId: string;
  role: string;
}

function metricText(value: number | undefined): string {
  return value === undefined ? '' : String(value);
}

export function ProjectForm({ options, initial, prefill, defaultManagerEmployeeId, carriedPhotos = 0, locale, onSubmit }: ProjectFormProps) {
  const intl = useIntl();
  const isEditing = initial !== undefined;
  const separator = locale === 'ru' ? ',' : '.';
  const form = useForm({
    struct: ProjectFormStruct,
    initialValues: {
      name: initial?.name ?? prefill?.name ?? '',
      problem: initial?.problem ?? prefill?.problem ?? '',
      type: initial?.type ?? 'ORGANIZATIONAL',
      businessCustomerEmployeeId: initial?.businessCustomerEmployeeId ?? '',
      baselineValue: metricText(initial?.baselineMetric?.value),
      baselineUnitId: initial?.baselineMetric?.unitId ?? '',
      targetValue: metricText(initial?.targetMetric?.value),
      targetUnitId: initial?.targetMetric?.unitId ?? '',
      completionDate: initial?.completionDate ?? '',
      reportingFrequency: initial?.reportingFrequency ?? 'MONTHLY',
      postMonitoringPeriodicity: initial?.postMonitoringPeriodicity ?? 'QUARTERLY',
      projectManagerEmployeeId: initial?.projectManagerEmployeeId ?? defaultManagerEmployeeId ?? '',
      currency: initial?.currency ?? 'RUB',
      profitPercent: initial ? basisPointsToPercentText(initial.profitBasisPoints, separator) : '',
      maxPerProject: initial?.maxPerProjectMinor != null ? minorToAmountText(initial.maxPerProjectMinor, separator) : '',
      effectRepeatability: initial?.effectRepeatability ?? 'RECURRING',
    },
  });

  const [goalIds, setGoalIds] = useState<string[]>(() => [...(initial?.goalIds ?? [])]);
  const [team, setTeam] = useState<TeamRow[]>(() => (initial?.team ?? []).map((member) => ({ key: crypto.randomUUID(), ...member })));
  const [teamErrors, setTeamErrors] = useState<Record<string, string>>({});
  const [goalError, setGoalError] = useState<string | undefined>(undefined);

  const photos = useKeptPhotos();

  const employeeOptions = useMemo(
    () =>
      options.employees.map((employee) => ({
        id: employee.id,
        title: employee.serviceNumber ? intl.formatMessage(M.employeeWithNumber, { name: employee.title, number: employee.serviceNumber }) : employee.title,
      })),
    [intl, options.employees],
  );
  const typeOptions = useMemo(() => PROJECT_TYPES.map((id) => ({ id, title: intl.formatMessage(M.types[id]) })), [intl]);
  const frequencyOptions = useMemo(() => REPORTING_FREQUENCIES.map((id) => ({ id, title: intl.formatMessage(M.frequencies[id]) })), [intl]);
  const repeatabilityOptions = useMemo(() => EFFECT_REPEATABILITIES.map((id) => ({ id, title: intl.formatMessage(M.repeatabilities[id]) })), [intl]);
  const currencyOptions = useMemo(() => CURRENCY_CODES.map((id) => ({ id, title: id })), []);
  const serviceNumbers = useMemo(() => new Map(options.employees.map((employee) => [employee.id, employee.serviceNumber])), [options.employees]);

  const label = {
    name: intl.formatMessage(M.name),
    problem: intl.formatMessage(M.problem),
    photos: intl.formatMessage(M.photos),
    type: intl.formatMessage(M.type),
    businessCustomer: intl.formatMessage(M.businessCustomer),
    goals: intl.formatMessage(M.goals),
    baselineValue: intl.formatMessage(M.baselineValue),
    targetValue: intl.formatMessage(M.targetValue),
    unit: intl.formatMessage(M.unit),
    completionDate: intl.formatMessage(M.completionDate),
    reportingFrequency: intl.formatMessage(M.reportingFrequency),
    postMonitoringPeriodicity: intl.formatMessage(M.postMonitoringPeriodicity),
    projectManager: intl.formatMessage(M.projectManager),
    member: intl.formatMessage(M.member),
    role: intl.formatMessage(M.role),
    currency: intl.formatMessage(M.currency),
    profitPercent: intl.formatMessage(M.profitPercent),
    maxPerProject: intl.formatMessage(M.maxPerProject),
    effectRepeatability: intl.formatMessage(M.effectRepeatability),
  };

  /** The team's and the goals' errors (codes shown in the user's language); empty when they are fine. */
  const checkRest = (): Record<string, string> => {
    const errors: Record<string, string> = {};
    const seen = new Set<string>();
    team.forEach((row, index) => {
      if (row.employeeId === '') errors[`team.${index}.employeeId`] = formatValidationError(intl, 'required', label.member);
      else if (seen.has(row.employeeId)) errors[`team.${index}.employeeId`] = intl.formatMessage(M.memberTwice);
      seen.add(row.employeeId);
      const role = row.role.trim();
      if (role === '') errors[`team.${index}.role`] = formatValidationError(intl, 'required', label.role);
      else if (role.length > PROJECT_ROLE_MAX) errors[`team.${index}.role`] = formatValidationError(intl, 'invalid', label.role);
    });
    return errors;
  };

  const submit = form.handleSubmit(async (value) => {
    const errors = checkRest();
    setTeamErrors(errors);
    setGoalError(goalIds.length > PROJECT_MAX_GOALS ? intl.formatMessage(M.tooManyGoals, { max: PROJECT_MAX_GOALS }) : undefined);
    // The errors stand beside the team's rows and the goals.
    if (Object.keys(errors).length > 0 || goalIds.length > PROJECT_MAX_GOALS) return;
    const profit = percentToBasisPoints(value.profitPercent);
    const max = value.maxPerProject ? amountTextToMinor(value.maxPerProject) : null;
    if (!profit.ok || (max !== null && !max.ok)) return;
    const metric = (text: string | undefined, unitId: string | undefined) => {
      const parsed = text ? metricValueOf(text) : null;
      return parsed === null || !unitId ? null : { value: parsed, unitId };
    };
    const photoInputs: ProjectPhotoInput[] = await photos.read();
    await onSubmit(
      {
        name: value.name.trim(),
        problem: value.problem.trim(),
        type: value.type,
        businessCustomerEmployeeId: value.businessCustomerEmployeeId ? value.businessCustomerEmployeeId : null,
        goalIds,
        baselineMetric: metric(value.baselineValue, value.baselineUnitId),
        targetMetric: metric(value.targetValue, value.targetUnitId),
        completionDate: value.completionDate,
        reportingFrequency: value.reportingFrequency,
        postMonitoringPeriodicity: value.postMonitoringPeriodicity,
        projectManagerEmployeeId: value.projectManagerEmployeeId,
        team: team.map((row) => ({ employeeId: row.employeeId, role: row.role.trim() })),
        currency: value.currency,
        profitBasisPoints: profit.value,
        maxPerProjectMinor: max?.ok ? max.value : null,
        effectRepeatability: value.effectRepeatability,
      },
      photoInputs,
    );
  });

  const updateRow = (key: string, change: Partial<TeamRow>) => setTeam((rows) => rows.map((row) => (row.key === key ? { ...row, ...change } : row)));
  const photoCount = carriedPhotos + photos.field.value.length;
  const completion = form.textField('completionDate', label.completionDate);
  const noEmployeesTip = options.employees.length === 0 ? intl.formatMessage(M.noEmployees) : undefined;

  return (
    <form className="project-form" noValidate onSubmit={submit}>
      <fieldset className="project-form__group">
        <legend>
          <FormattedMessage {...M.sectionProject} />
        </legend>
        <TextField {...form.textField('name', label.name)} maxLength={200} />
        <Textarea {...form.textField('problem', label.problem)} autoHeight />
        {isEditing ? (
          <p className="project-form__note">
            <FormattedMessage {...M.photosKept} />
          </p>
        ) : (
          <FileUpload
            label={label.photos}
            name="photos"
            {...photos.field}
            finishedText={intl.formatMessage(M.photoKept)}
            max={Math.max(0, PROJECT_MAX_IMAGES - carriedPhotos)}
            disabled={carriedPhotos >= PROJECT_MAX_IMAGES}
            tip={intl.formatMessage(M.photosTip, { carried: carriedPhotos, max: PROJECT_MAX_IMAGES, count: photoCount })}
          />
        )}
        <Select {...form.selectField('type', label.type)} options={typeOptions} />
        <Select
          {...form.selectField('businessCustomerEmployeeId', label.businessCustomer)}
          options={employeeOptions}
          searchable
          placeholder={intl.formatMessage(M.chooseEmployee)}
          tip={noEmployeesTip}
        />
        <Select
          label={label.goals}
          name="goalIds"
          multiple
          searchable
          value={goalIds}
          onChange={(next) => {
            setGoalIds(next);
            setGoalError(next.length > PROJECT_MAX_GOALS ? intl.formatMessage(M.tooManyGoals, { max: PROJECT_MAX_GOALS }) : undefined);
          }}
          options={options.goals}
          placeholder={intl.formatMessage(M.chooseGoals)}
          error={goalError}
          tip={options.goals.length === 0 ? intl.formatMessage(M.noGoals) : undefined}
        />
      </fieldset>

      <fieldset className="project-form__group">
        <legend>
          <FormattedMessage {...M.sectionMetrics} />
        </legend>
        <div className="project-form__row">
          <TextField {...form.textField('baselineValue', label.baselineValue)} inputMode="decimal" />
          <Select {...form.selectField('baselineUnitId', label.unit)} options={options.units} placeholder={intl.formatMessage(M.chooseUnit)} />
        </div>
        <div className="project-form__row">
          <TextField {...form.textField('targetValue', label.targetValue)} inputMode="decimal" />
          <Select {...form.selectField('targetUnitId', label.unit)} options={options.units} placeholder={intl.formatMessage(M.chooseUnit)} />
        </div>
        <DatePicker
          label={completion.label}
          name={completion.name}
          value={completion.value === '' ? null : completion.value}
          onChange={(next) => form.setValues({ completionDate: next ?? '' })}
          onBlur={completion.onBlur}
          error={completion.error}
          required={completion.required}
          locale={locale}
        />
        <Select {...form.selectField('reportingFrequency', label.reportingFrequency)} options={frequencyOptions} />
        <Select {...form.selectField('postMonitoringPeriodicity', label.postMonitoringPeriodicity)} options={frequencyOptions} />
      </fieldset>

      <fieldset className="project-form__group">
        <legend>
          <FormattedMessage {...M.sectionTeam} />
        </legend>
        <Select {...form.selectField('projectManagerEmployeeId', label.projectManager)} options={employeeOptions} searchable placeholder={intl.formatMessage(M.chooseEmployee)} tip={noEmployeesTip} />
        <ul className="project-form__team">
          {team.map((row, index) => {
            const number = serviceNumbers.get(row.employeeId);
            return (
              <li key={row.key} className="project-form__member" data-team-row={index}>
                <Select
                  label={label.member}
                  name={`team.${index}.employeeId`}
                  value={row.employeeId}
                  onChange={(employeeId) => updateRow(row.key, { employeeId })}
                  options={employeeOptions}
                  searchable
                  required
                  placeholder={intl.formatMessage(M.chooseEmployee)}
                  error={teamErrors[`team.${index}.employeeId`]}
                  tip={number ? intl.formatMessage(M.serviceNumber, { number }) : undefined}
                />
                <TextField
                  label={label.role}
                  name={`team.${index}.role`}
                  value={row.role}
                  onChange={(role) => updateRow(row.key, { role })}
                  required
                  maxLength={PROJECT_ROLE_MAX}
                  error={teamErrors[`team.${index}.role`]}
                />
                <Button variant="secondary" onClick={() => setTeam((rows) => rows.filter((other) => other.key !== row.key))}>
                  <FormattedMessage {...M.removeMember} />
                </Button>
              </li>
            );
          })}
        </ul>
        {team.length < PROJECT_MAX_TEAM && (
          <Button variant="secondary" onClick={() => setTeam((rows) => [...rows, { key: crypto.randomUUID(), employeeId: '', role: '' }])}>
            <FormattedMessage {...M.addMember} />
          </Button>
        )}
      </fieldset>

      <fieldset className="project-form__group">
        <legend>
          <FormattedMessage {...M.sectionTerms} />
        </legend>
        <Select {...form.selectField('currency', label.currency)} options={currencyOptions} />
        <TextField {...form.textField('profitPercent', label.profitPercent)} inputMode="decimal" tip={intl.formatMessage(M.profitTip)} />
        <TextField {...form.textField('maxPerProject', label.maxPerProject)} inputMode="decimal" tip={intl.formatMessage(M.maxTip)} />
        <Select {...form.selectField('effectRepeatability', label.effectRepeatability)} options={repeatabilityOptions} />
        <p className="project-form__note">
          <FormattedMessage {...M.paymentsLater} />
        </p>
      </fieldset>

      <Button type="submit" loading={form.isSubmitting} block>
        {isEditing ? <FormattedMessage {...M.save} /> : <FormattedMessage {...M.create} />}
      </Button>
    </form>
  );
}
