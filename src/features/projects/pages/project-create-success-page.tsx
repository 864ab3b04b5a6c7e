// After creating a project (`?id=<projectId>`): says whether it is already on the server or waits on this device,
// and links to the project and to the list.
import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { useIsEntityUnsent } from '../../../lib/entity-unsent';
import { useLocalProject } from '../hooks';
import '../projects-list.css';

export default function ProjectCreateSuccessPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const id = new URLSearchParams(useSearch()).get('id') ?? '';
  const isUnsent = useIsEntityUnsent('projects', id);
  const project = useLocalProject(companyId, id);
  if (isUnsent === undefined || project === undefined) return <PageSpinner />;

  return (
    <section className="projects-page" aria-labelledby="project-created-title" data-state={isUnsent ? 'waiting' : 'sent'}>
      <h1 className="projects-page__title" id="project-created-title">
        {isUnsent ? (
          <FormattedMessage id="projects.createSuccess.waitingTitle" defaultMessage="Project saved, waiting to send" />
        ) : (
          <FormattedMessage id="projects.createSuccess.title" defaultMessage="Project created" />
        )}
      </h1>
      <p role="status">
        <CreatedText isUnsent={isUnsent} name={project?.name ?? ''} />
      </p>
      <div className="projects-page__actions">
        {id !== '' && (
          <Link href={paths.company.project(companyId, id)} className={buttonClassName('primary')}>
            <FormattedMessage id="projects.createSuccess.open" defaultMessage="Open the project" />
          </Link>
        )}
        <Link href={paths.company.projects(companyId)} className={buttonClassName('secondary')}>
          <FormattedMessage id="projects.createSuccess.list" defaultMessage="All projects" />
        </Link>
        {isUnsent && (
          <Link href={paths.unsent} className={buttonClassName('secondary')}>
            <FormattedMessage id="projects.createSuccess.unsent" defaultMessage="Unsent" />
          </Link>
        )}
      </div>
    </section>
  );
}

/**
 * What became of the project, by its name. A page opened directly (a reload, a link) for a project this device
 * does not hold has no name to give, and says the same without one rather than show empty quotes.
 */
function CreatedText({ isUnsent, name }: { isUnsent: boolean; name: string }) {
  if (isUnsent) {
    return name === '' ? (
      <FormattedMessage
        id="projects.createSuccess.waitingTextNoName"
        defaultMessage="The project is kept on this device and will be sent by itself as soon as there is a connection. You can follow it on the “Unsent” screen."
      />
    ) : (
      <FormattedMessage
        id="projects.createSuccess.waitingText"
        defaultMessage="The project “{name}” is kept on this device and will be sent by itself as soon as there is a connection. You can follow it on the “Unsent” screen."
        values={{ name }}
      />
    );
  }
  return name === '' ? (
    <FormattedMessage
      id="projects.createSuccess.sentTextNoName"
      defaultMessage="The project is created. Its project manager sends it to finance for calculation from the project page."
    />
  ) : (
    <FormattedMessage
      id="projects.createSuccess.sentText"
      defaultMessage="The project “{name}” is created. Its project manager sends it to finance for calculation from the project page."
      values={{ name }}
    />
  );
}
