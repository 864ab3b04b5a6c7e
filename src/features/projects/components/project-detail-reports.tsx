import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { object, optional, size } from 'superstruct';
import { useLocation } from 'wouter';
import { paths } from '../../../domain/paths';
import type { MemberView } from '../../../domain/permissions';
import { PROJECT_REPORTING_STATUSES, PROJECT_REPORT_COMMENT_MAX, isProjectLead, type Project, type ProjectHistoryEntry } from '../../../domain/project';
import { CalendarDate, multilineText } from '../../../domain/validation';
import { Button } from '../../../ui/button';
import { DatePicker } from '../../../ui/date-picker/date-picker';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import { localCalendarDate } from '../../../domain/report-schedule';
import type { ProjectActions } from './project-detail-hooks';
import { AMOUNT_MESSAGES, IndicatorValueText, localToday, parseIndicatorValue } from './project-detail-format';
import { CalendarDateText, ProjectStatusText } from './project-detail-parts';

/** The next report's due date, and whether it is overdue (flagged by the job, or past on the device's calendar). */
export function NextReportDue({ project, today = localToday() }: { project: Project; today?: string }) {
  if (project.nextReportDue === null) {
    if (!PROJECT_REPORTING_STATUSES.includes(project.status)) return null;
    return (
      <p className="project-due" data-due="none">
        <FormattedMessage id="projects.reports.noneDue" defaultMessage="No more reports are due." />
      </p>
    );
  }
  const isOverdue = project.reportOverdueAt !== null || project.nextReportDue < today;
  return (
    <p className={`project-due${isOverdue ? ' project-due--overdue' : ''}`} data-due={isOverdue ? 'overdue' : 'due'}>
      <FormattedMessage id="projects.reports.due" defaultMessage="Report due {date}" values={{ date: <CalendarDateText date={project.nextReportDue} /> }} />
      {isOverdue && (
        <span className="project-due__flag">
          <FormattedMessage id="projects.reports.overdue" defaultMessage="Overdue" />
        </span>
      )}
    </p>
  );
}

/** The indicator reports, newest first: date, value in the target metric's unit, comment, who. */
export function IndicatorReports({ project, unitName }: { project: Project; unitName: string | null }) {
  if (project.indicatorReports.length === 0) {
    return (
      <p className="project-detail__muted">
        <FormattedMessage id="projects.reports.empty" defaultMessage="No reports yet." />
      </p>
    );
  }
  const reports = [...project.indicatorReports].sort((a, b) => b.date.localeCompare(a.date) || b.at.localeCompare(a.at));
  return (
    <ol className="project-reports">
      {reports.map((report) => (
        <li key={report.id} className="project-reports__item">
          <span className="project-reports__date">
            <CalendarDateText date={report.date} />
          </span>
          <span className="project-reports__value">
            <FormattedMessage
              id="projects.reports.value"
              defaultMessage="{value, number}{hasUnit, select, yes { {unit}} other {}}"
              values={{ value: report.value, unit: unitName ?? '', hasUnit: unitName ? 'yes' : 'no' }}
            />
          </span>
          {report.byName && <span className="project-reports__by">{report.byName}</span>}
          {report.comment && <p className="project-reports__comment">{report.comment}</p>}
        </li>
      ))}
    </ol>
  );
}

const ReportStruct = object({
  date: CalendarDate,
  value: IndicatorValueText,
  comment: optional(size(multilineText(), 0, PROJECT_REPORT_COMMENT_MAX)),
});

export interface IndicatorReportFormProps {
  companyId: string;
  project: Project;
  member: MemberView;
  actions: ProjectActions;
  unitName: string | null;
  now?: () => Date;
}

function commentOrNull(comment: string | undefined): string | null {
  const trimmed = comment?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** "Report the indicator": the lead, while APPROVED or COMPLETED; the report's id is made on the device. */
export function IndicatorReportForm({ companyId, project, member, actions, unitName, now = () => new Date() }: IndicatorReportFormProps) {
  const intl = useIntl();
  const [, navigate] = useLocation();
  const today = localCalendarDate(now());
  const form = useForm({ struct: ReportStruct, initialValues: { date: today }, messages: AMOUNT_MESSAGES });
  if (!PROJECT_REPORTING_STATUSES.includes(project.status) || !isProjectLead(member, project)) return null;
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

function HistoryWhat({ entry }: { entry: ProjectHistoryEntry }) {
  const who = entry.byName ?? '—';
  switch (entry.action) {
    case 'CREATED':
      return <FormattedMessage id="projects.history.created" defaultMessage="Created by {who}" values={{ who }} />;
    case 'EDITED':
      return <FormattedMessage id="projects.history.edited" defaultMessage="Edited by {who}" values={{ who }} />;
    case 'INDICATOR_REPORTED':
      return <FormattedMessage id="projects.history.reported" defaultMessage="{who} reported the indicator" values={{ who }} />;
    case 'TRANSITION':
      return (
        <FormattedMessage
          id="projects.history.moved"
          defaultMessage="{who}: {from} → {to}"
          values={{ who, from: entry.fromStatus ? <ProjectStatusText status={entry.fromStatus} /> : '—', to: <ProjectStatusText status={entry.toStatus} /> }}
        />
      );
  }
}

/** The audit trail, oldest first: who, when, from -> to, comment. */
export function ProjectHistory({ project }: { project: Project }) {
  const entries = project.history.map((entry, index) => ({ entry, index })).sort((a, b) => a.entry.at.localeCompare(b.entry.at) || a.index - b.index);
  return (
    <ol className="project-history">
      {entries.map(({ entry, index }) => (
        <li key={`${entry.at}-${index}`} className="project-history__item" data-action={entry.action}>
          <time className="project-history__at" dateTime={entry.at}>
            <FormattedDate value={entry.at} dateStyle="medium" timeStyle="short" />
          </time>
          <span className="project-history__what">
            <HistoryWhat entry={entry} />
          </span>
          {entry.comment && <p className="project-history__comment">{entry.comment}</p>}
        </li>
      ))}
    </ol>
  );
}
