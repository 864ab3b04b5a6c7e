import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';
import { useCarriedSuggestion } from '../hooks';

/**
 * The proposal a project is being made from (`?fromSuggestion=<id>`, the "Make a project" link of an approved
 * proposal), read from the mirror: title, author, photos. The form itself comes with the projects feature.
 */
function CarriedSuggestionCard({ companyId, suggestionId }: { companyId: string; suggestionId: string }) {
  const carried = useCarriedSuggestion(companyId, suggestionId);
  if (carried === undefined) return null;
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

export default function ProjectCreatePage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const fromSuggestion = new URLSearchParams(useSearch()).get('fromSuggestion');
  return (
    <PlannedPage
      title={<FormattedMessage id="projects.create.title" defaultMessage="New project" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      {fromSuggestion !== null && fromSuggestion !== '' && <CarriedSuggestionCard companyId={companyId} suggestionId={fromSuggestion} />}
      <p>
        <FormattedMessage
          id="projects.create.planned"
          defaultMessage="Here an approved proposal will become a project: name, problem, photos, goals, baseline and target metrics, dates, reporting frequency and the team."
        />
      </p>
    </PlannedPage>
  );
}
