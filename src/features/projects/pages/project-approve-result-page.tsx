import { FormattedMessage } from 'react-intl';
import { ProjectResult } from '../components/project-detail-result';
import { CalendarDateText, ProjectStatusText } from '../components/project-detail-parts';
import '../project.css';

/** After the direction manager's decision: approved (in the registry, first report due) or returned for revision. */
export default function ProjectApproveResultPage() {
  return (
    <ProjectResult title={<FormattedMessage id="projects.approveResult.title" defaultMessage="Decision on the project" />}>
      {({ project }) => {
        if (project.status === 'APPROVED') {
          return (
            <>
              <p data-result="approved">
                <FormattedMessage id="projects.approveResult.approved" defaultMessage="The project “{name}” is approved and is now in the registry." values={{ name: project.name }} />
              </p>
              {project.nextReportDue !== null && (
                <p>
                  <FormattedMessage
                    id="projects.approveResult.firstReport"
                    defaultMessage="The first indicator report is due {date}."
                    values={{ date: <CalendarDateText date={project.nextReportDue} /> }}
                  />
                </p>
              )}
            </>
          );
        }
        if (project.status === 'FOR_REVISION') {
          const reason = [...project.history].reverse().find((entry) => entry.action === 'TRANSITION' && entry.toStatus === 'FOR_REVISION')?.comment ?? null;
          return (
            <>
              <p data-result="revision">
                <FormattedMessage
                  id="projects.approveResult.revision"
                  defaultMessage="The project “{name}” is returned for revision. Its manager will see the reason and send it for calculation again."
                  values={{ name: project.name }}
                />
              </p>
              {reason && <p className="project-result__reason">{reason}</p>}
            </>
          );
        }
        return (
          <p data-result="other">
            <FormattedMessage
              id="projects.approveResult.other"
              defaultMessage="The project “{name}” is now: {status}."
              values={{ name: project.name, status: <ProjectStatusText status={project.status} /> }}
            />
          </p>
        );
      }}
    </ProjectResult>
  );
}
