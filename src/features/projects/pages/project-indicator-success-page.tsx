import { FormattedMessage } from 'react-intl';
import { ProjectResult } from '../components/project-detail-result';
import { CalendarDateText } from '../components/project-detail-parts';
import '../project.css';

/** After an indicator report: what was filed and when the next one is due. */
export default function ProjectIndicatorSuccessPage() {
  return (
    <ProjectResult title={<FormattedMessage id="projects.indicatorSuccess.title" defaultMessage="Report filed" />}>
      {({ project }) => {
        const latest = project.indicatorReports.reduce<(typeof project.indicatorReports)[number] | null>(
          (best, report) => (best === null || report.at > best.at ? report : best),
          null,
        );
        return (
          <>
            {latest && (
              <p data-result="filed">
                <FormattedMessage
                  id="projects.indicatorSuccess.text"
                  defaultMessage="The indicator of “{name}” is reported: {value, number} on {date}."
                  values={{ name: project.name, value: latest.value, date: <CalendarDateText date={latest.date} /> }}
                />
              </p>
            )}
            <p>
              {project.nextReportDue === null ? (
                <FormattedMessage id="projects.reports.noneDue" defaultMessage="No more reports are due." />
              ) : (
                <FormattedMessage id="projects.indicatorSuccess.next" defaultMessage="The next report is due {date}." values={{ date: <CalendarDateText date={project.nextReportDue} /> }} />
              )}
            </p>
          </>
        );
      }}
    </ProjectResult>
  );
}
