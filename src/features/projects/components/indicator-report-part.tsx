// The project lead's indicator report form as a lazily loaded part of the project page (indicator-report-form.tsx
// says why). Its placeholder holds the form's title and roughly its height.
import { FormattedMessage } from 'react-intl';
import type { MemberView } from '../../../domain/permissions';
import { PROJECT_REPORTING_STATUSES, isProjectLead, type Project } from '../../../domain/project';
import { lazyPart } from '../../../ui/lazy-part';
import { Spinner } from '../../../ui/spinner';
import type { ProjectActions } from './project-detail-hooks';

export interface IndicatorReportFormProps {
  companyId: string;
  project: Project;
  member: MemberView;
  actions: ProjectActions;
  unitName: string | null;
  now?: () => Date;
}

/** Whether the form is for this member: the project's lead, while the project takes reports. */
export function showsIndicatorReportForm(project: Project, member: MemberView): boolean {
  return PROJECT_REPORTING_STATUSES.includes(project.status) && isProjectLead(member, project);
}

function IndicatorReportPlaceholder(_props: IndicatorReportFormProps) {
  return (
    <section className="project-report-form project-report-form--loading" aria-busy="true" data-part-loading="indicator-report">
      <h3 className="project-detail__minor-title">
        <FormattedMessage id="projects.reports.formTitle" defaultMessage="Report the indicator" />
      </h3>
      <Spinner />
    </section>
  );
}

export const IndicatorReportPart = lazyPart(() => import('./indicator-report-form').then((module) => module.IndicatorReportForm), IndicatorReportPlaceholder);

// In development and in the tests the form loads with this module, so the page renders it at once there.
if (!import.meta.env.PROD) await IndicatorReportPart.preload();
