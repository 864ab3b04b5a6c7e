// A new project (`/companies/{c}/projects/create`), made directly or from an approved proposal
// (`?fromSuggestion=<id>`: its title and problem fill the form, its author and photos are carried), and the lead's
// edit of a project while NEW or FOR_REVISION (`?edit=<projectId>`, also the Unsent screen's "Edit" of a refused
// creation or edit). Reads the mirror only; saving writes the project and its outbox row on the device (offline
// too) and opens the success page (or, after an edit, the project).
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { PROJECT_EDITABLE_STATUSES, canCreateProject, isProjectLead } from '../../../domain/project';
import { useMemberView } from '../../../lib/member-view';
import { PageSpinner } from '../../../ui/spinner';
import { ProjectForm } from '../components/project-form';
import { draftOfProject, useCarriedSuggestion, useLocalProject, useProjectFormActions, useProjectFormData, type CarriedSuggestion } from '../hooks';
import '../projects-list.css';
import '../components/project-form.css';

/**
 * The proposal a project is being made from (`?fromSuggestion=<id>`, the "Make a project" link of an approved
 * proposal), read from the mirror: title, author, photos.
 */
function CarriedSuggestionCard({ companyId, carried }: { companyId: string; carried: CarriedSuggestion | null }) {
  if (carried === null) {
    return (
      <p className="project-from-suggestion" role="status">
        <FormattedMessage id="projects.create.fromMissing" defaultMessage="The proposal this project is to be made from is not on this device." />
      </p>
    );
  }
  return (
    <section className="project-from-suggestion" aria-labelledby="project-from-suggestion-title" data-suggestion={carried.id}>
      <h2 id="project-from-suggestion-title">
        <FormattedMessage id="projects.create.fromTitle" defaultMessage="Made from the proposal" />
      </h2>
      <p>
        <Link href={paths.company.suggestion(companyId, carried.id)}>{carried.title}</Link>
      </p>
      <p>
        <FormattedMessage
          id="projects.create.fromDetails"
          defaultMessage="Author: {author}. {photos, plural, =0 {No photos} one {# photo} other {# photos}}."
          values={{ author: carried.authorName, photos: carried.photoCount }}
        />
      </p>
      {!carried.isApproved && (
        <p role="note">
          <FormattedMessage id="projects.create.fromNotApproved" defaultMessage="This proposal is not approved: only an approved proposal becomes a project." />
        </p>
      )}
    </section>
  );
}

function useCalendarLocale(): 'ru' | 'en' {
  return useIntl().locale.startsWith('en') ? 'en' : 'ru';
}

function NewProject({ companyId, suggestionId }: { companyId: string; suggestionId: string | null }) {
  const [, navigate] = useLocation();
  const locale = useCalendarLocale();
  const member = useMemberView(companyId);
  const data = useProjectFormData(companyId);
  const carried = useCarriedSuggestion(companyId, suggestionId);
  const actions = useProjectFormActions(companyId, member);
  if (member === undefined || data === undefined || carried === undefined) return <PageSpinner />;
  const card = suggestionId !== null ? <CarriedSuggestionCard companyId={companyId} carried={carried} /> : null;
  if (!canCreateProject(member)) {
    return (
      <>
        {card}
        <p role="status" data-refused="">
          <FormattedMessage
            id="projects.create.notAllowed"
            defaultMessage="Projects are created by heads of departments, the owner, the CEO, top managers and direction managers."
          />
        </p>
      </>
    );
  }
  if (suggestionId !== null && (carried === null || !carried.isApproved)) return card;
  return (
    <>
      {card}
      <ProjectForm
        options={data}
        prefill={carried ? { name: carried.title, problem: carried.problem } : undefined}
        defaultManagerEmployeeId={data.ownEmployeeId}
        carriedPhotos={carried?.photoCount ?? 0}
        locale={locale}
        onSubmit={async (draft, photos) => {
          const id = await actions.create(draft, photos, carried?.id ?? null);
          navigate(`${paths.company.projectsCreateSuccess(companyId)}?id=${encodeURIComponent(id)}`);
        }}
      />
    </>
  );
}

function EditProject({ companyId, projectId }: { companyId: string; projectId: string }) {
  const [, navigate] = useLocation();
  const locale = useCalendarLocale();
  const member = useMemberView(companyId);
  const data = useProjectFormData(companyId);
  const project = useLocalProject(companyId, projectId);
  const actions = useProjectFormActions(companyId, member);
  if (member === undefined || data === undefined || project === undefined) return <PageSpinner />;
  if (project === null) {
    return (
      <p role="status">
        <FormattedMessage id="projects.edit.missing" defaultMessage="This project is not on this device." />
      </p>
    );
  }
  if (!isProjectLead(member, project)) {
    return (
      <p role="status" data-refused="">
        <FormattedMessage id="projects.edit.notAllowed" defaultMessage="Only the project manager and the head of its department edit the project." />
      </p>
    );
  }
  if (!PROJECT_EDITABLE_STATUSES.includes(project.status)) {
    return (
      <p role="status" data-refused="">
        <FormattedMessage id="projects.edit.notEditable" defaultMessage="The project is edited only while it is new or returned for revision." />
      </p>
    );
  }
  return (
    <ProjectForm
      key={project.id}
      options={data}
      initial={draftOfProject(project)}
      locale={locale}
      onSubmit={async (draft) => {
        await actions.edit(project.id, draft);
        navigate(paths.company.project(companyId, project.id));
      }}
    />
  );
}

export default function ProjectCreatePage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const search = new URLSearchParams(useSearch());
  const editOf = search.get('edit');
  const fromSuggestion = search.get('fromSuggestion');
  const isEdit = editOf !== null && editOf !== '';
  return (
    <section className="projects-page project-create-page" aria-labelledby="project-create-title">
      <p className="projects-page__back">
        <Link href={isEdit ? paths.company.project(companyId, editOf) : paths.company.projects(companyId)}>
          {isEdit ? (
            <FormattedMessage id="projects.edit.back" defaultMessage="Back to the project" />
          ) : (
            <FormattedMessage id="projects.create.back" defaultMessage="Back to the projects" />
          )}
        </Link>
      </p>
      <h1 className="projects-page__title" id="project-create-title">
        {isEdit ? <FormattedMessage id="projects.edit.title" defaultMessage="Edit the project" /> : <FormattedMessage id="projects.create.title" defaultMessage="New project" />}
      </h1>
      {isEdit ? (
        <EditProject companyId={companyId} projectId={editOf} />
      ) : (
        <NewProject companyId={companyId} suggestionId={fromSuggestion !== null && fromSuggestion !== '' ? fromSuggestion : null} />
      )}
    </section>
  );
}
