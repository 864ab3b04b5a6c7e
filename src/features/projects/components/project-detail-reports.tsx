import { FormattedDate, FormattedMessage } from 'react-intl';
import { PROJECT_REPORTING_STATUSES, type Project, type ProjectHistoryEntry } from '../../../domain/project';
import { localToday } from './project-detail-format';
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
