import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { useProjectView, type ProjectView } from './project-detail-hooks';
import { SentState } from './project-detail-parts';

export interface ProjectResultProps {
  title: ReactNode;
  /** What happened, from the mirrored project (which already shows the change, sent or not). */
  children: (view: ProjectView) => ReactNode;
}

/**
 * The frame of the pages after a decision: the title, what happened (offline included: the change is already in
 * the device's copy), whether the server has it yet, and the links back to the project and the list.
 */
export function ProjectResult({ title, children }: ProjectResultProps) {
  const { companyId = '', projectId = '' } = useParams<{ companyId: string; projectId: string }>();
  const view = useProjectView(companyId, projectId);
  if (view === undefined) return <PageSpinner />;
  return (
    <section className="project-detail project-result" aria-labelledby="project-result-title" data-state={view?.unsent ? 'waiting' : 'sent'}>
      <h1 className="project-detail__title" id="project-result-title">
        {title}
      </h1>
      {view === null ? (
        <p>
          <FormattedMessage id="projects.view.missing" defaultMessage="This project is not on this device" />
        </p>
      ) : (
        <>
          <div className="project-result__text" role="status">
            {children(view)}
          </div>
          <SentState unsent={view.unsent} />
        </>
      )}
      <div className="project-detail__actions">
        {view !== null && (
          <Link href={paths.company.project(companyId, projectId)} className={buttonClassName('primary')}>
            <FormattedMessage id="projects.result.open" defaultMessage="Open the project" />
          </Link>
        )}
        <Link href={paths.company.projects(companyId)} className={buttonClassName('secondary')}>
          <FormattedMessage id="projects.result.toList" defaultMessage="To the projects" />
        </Link>
        {view?.unsent && (
          <Link href={paths.unsent} className={buttonClassName('secondary')}>
            <FormattedMessage id="projects.result.unsent" defaultMessage="Unsent" />
          </Link>
        )}
      </div>
    </section>
  );
}
