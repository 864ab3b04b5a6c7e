// "Report the indicator": the project lead's form on the project page, while the project is APPROVED or COMPLETED.
// A chunk of its own (src/ui/lazy-part.tsx): only the lead sees it, and with it come the date picker and the form
// kit, which the page's other visitors never need (issue 14: every route within 200 KB). The page decides whether
// it shows (`showsIndicatorReportForm`), so nobody else downloads it.
import { FormattedMessage, useIntl } from 'react-intl';
import { object, optional, size } from 'superstruct';
import { useLocation } from 'wouter';
import { paths } from '../../../domain/paths';
import { PROJECT_REPORT_COMMENT_MAX } from '../../../domain/project';
import { localCalendarDate } from '../../../domain/report-schedule';
import { CalendarDate, multilineText } from '../../../domain/validation';
import { Button } from '../../../ui/button';
import { DatePicker } from '../../../ui/date-picker/date-picker';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import type { IndicatorReportFormProps } from './indicator-report-part';
import { AMOUNT_MESSAGES, IndicatorValueText, parseIndicatorValue } from './project-detail-format';

const ReportStruct = object({
  date: CalendarDate,
  value: IndicatorValueText,
  comment: optional(size(multilineText(), 0, PROJECT_REPORT_COMMENT_MAX)),
});

function commentOrNull(comment: string | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** The form; the report's id is made on the device. */
export function IndicatorReportForm({ companyId, project, member, actions, unitName, now = () => new Date() }: IndicatorReportFormProps) {
  const intl = useIntl();
  const [, navigate] = useLocation();
  const today = localCalendarDate(now());
  const form = useForm({ struct: ReportStruct, initialValues: { date: today }, messages: AMOUNT_MESSAGES });
  const date = form.selectField('date', intl.formatMessage({ id: 'projects.reports.date', defaultMessage: 'Date of the value' }));
  const valueLabel = unitName
    ? intl.formatMessage({ id: 'projects.reports.valueIn', defaultMessage: 'Value, {unit}' }, { unit: unitName })
    : intl.formatMessage({ id: 'projects.reports.valueLabel', defaultMessage: 'Value' });
  return (
    <form
      className="project-report-form"
      noValidate
      data-form="indicator"
      aria-labelledby="project-report-title"
      onSubmit={form.handleSubmit(async (value) => {
        await actions.report(project.id, { id: crypto.randomUUID(), date: value.date, value: parseIndicatorValue(value.value) ?? 0, comment: commentOrNull(value.comment) }, member);
        navigate(paths.company.projectIndicatorSuccess(companyId, project.id));
      })}
    >
      <h3 className="project-detail__minor-title" id="project-report-title">
        <FormattedMessage id="projects.reports.formTitle" defaultMessage="Report the indicator" />
      </h3>
      <DatePicker
        label={date.label}
        name={date.name}
        value={date.value === '' ? null : date.value}
        onChange={(picked) => date.onChange(picked ?? '')}
        onBlur={date.onBlur}
        error={date.error}
        required={date.required}
        maxDate={today}
        locale={intl.locale.startsWith('en') ? 'en' : 'ru'}
        autoApply
      />
      <TextField {...form.textField('value', valueLabel)} inputMode="decimal" autoComplete="off" />
      <Textarea
        {...form.textField('comment', intl.formatMessage({ id: 'projects.reports.comment', defaultMessage: 'Comment' }))}
        maxLength={PROJECT_REPORT_COMMENT_MAX}
        autoHeight
      />
      <div className="project-detail__actions">
        <Button type="submit" loading={form.isSubmitting} data-action="report-submit">
          <FormattedMessage id="projects.reports.submit" defaultMessage="Report the indicator" />
        </Button>
      </div>
    </form>
  );
}
