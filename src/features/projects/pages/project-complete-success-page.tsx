import { FormattedMessage } from 'react-intl';
import { ProjectResult } from '../components/project-detail-result';
import { CalendarDateText, MoneyText } from '../components/project-detail-parts';
import '../project.css';

/** After the project manager completed the project: the date, the actual effect, and post-monitoring reports. */
export default function ProjectCompleteSuccessPage() {
  return (
    <ProjectResult title={<FormattedMessage id="projects.completeSuccess.title" defaultMessage="Project completed" />}>
      {({ project }) =>
        project.status === 'COMPLETED' && project.actualCompletionDate !== null ? (
          <>
            <p data-result="completed">
              <FormattedMessage
                id="projects.completeSuccess.text"
                defaultMessage="The project “{name}” is completed on {date}."
                values={{ name: project.name, date: <CalendarDateText date={project.actualCompletionDate} /> }}
              />
            </p>
            {project.actualEffect12mMinor !== null && (
              <p>
                <FormattedMessage
                  id="projects.completeSuccess.effect"
                  defaultMessage="Actual effect over 12 months: {amount}."
                  values={{ amount: <MoneyText amountMinor={project.actualEffect12mMinor} currency={project.currency} /> }}
                />
              </p>
            )}
            <p>
              {project.nextReportDue === null ? (
                <FormattedMessage id="projects.completeSuccess.noReports" defaultMessage="No post-monitoring reports are due." />
              ) : (
                <FormattedMessage
                  id="projects.completeSuccess.nextReport"
                  defaultMessage="Post-monitoring: the next indicator report is due {date}."
                  values={{ date: <CalendarDateText date={project.nextReportDue} /> }}
                />
              )}
            </p>
          </>
        ) : (
          <p data-result="not-completed">
            <FormattedMessage id="projects.completeSuccess.notCompleted" defaultMessage="The project “{name}” is not completed." values={{ name: project.name }} />
          </p>
        )
      }
    </ProjectResult>
  );
}
