import { useMemo } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber } from 'react-intl';
import { Link, useParams } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { paths } from '../../../domain/paths';
import { canReviewSuggestion } from '../../../domain/permissions';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { backLinkOf } from '../back-link';
import { DueText } from '../components/due-text';
import { HistoryList } from '../components/history-list';
import { HolderText } from '../components/holder-text';
import { DevicePhoto, ServerPhoto } from '../components/photo';
import { ReviewPanel } from '../components/review-panel';
import { StatusText } from '../components/status-text';
import { UnsentMark } from '../components/unsent-mark';
import { useCompanyPeople, useReviewActions, useSuggestion, useSuggestionLinks } from '../hooks';
import { holderOf, shortNameOf } from '../people';
import { useCurrentUser } from '../../../lib/app-state';
import { useMemberView } from '../../../lib/member-view';
import '../suggestions.css';

/**
 * One proposal, read from the device's mirror only (works offline): its status, due date and who holds it now,
 * the decision and who made it, the history of every move, and what the viewer may do: decide it (whoever may
 * review it, while it is under consideration), clarify and resend it (its author, when asked), or make a
 * project of it (once approved).
 */
export default function SuggestionPage() {
  const { companyId = '', suggestionId = '' } = useParams<{ companyId: string; suggestionId: string }>();
  const user = useCurrentUser();
  const historyState: unknown = useHistoryState();
  const view = useSuggestion(companyId, suggestionId);
  const people = useCompanyPeople(companyId);
  const member = useMemberView(companyId);
  const actions = useReviewActions(companyId);
  const links = useSuggestionLinks(companyId, suggestionId, view?.suggestion.goalId ?? null);
  const departmentNames = useMemo(() => new Map((people?.departments ?? []).map((department) => [department.id, department.name])), [people]);

  if (view === undefined || people === undefined || member === undefined) return <PageSpinner />;

  const isAuthor = view?.suggestion.authorId === user.id;
  const fallback = view === null || isAuthor ? paths.company.mySuggestions(companyId) : paths.company.suggestions(companyId);
  const back = (
    <p className="suggestions-page__back">
      <Link href={backLinkOf(historyState, fallback)}>
        <FormattedMessage id="suggestions.view.back" defaultMessage="Back to the list" />
      </Link>
    </p>
  );
  if (view === null) {
    return (
      <section className="suggestions-page">
        {back}
        <h1 className="suggestions-page__title">
          <FormattedMessage id="suggestions.view.missing" defaultMessage="This proposal is not on this device" />
        </h1>
        <p>
          <FormattedMessage id="suggestions.view.missingText" defaultMessage="It may not have been loaded yet: connect to the network and open it again." />
        </p>
      </section>
    );
  }

  const { suggestion, unsent, localPhotos } = view;
  const department = departmentNames.get(suggestion.departmentId);
  const mayReview = canReviewSuggestion(member, suggestion);
  const holder = holderOf(suggestion.departmentId, suggestion.escalationLevel, people.departments, people.members);
  const nameOfUser = (userId: string) => {
    const person = people.members.get(userId);
    return person ? shortNameOf(person) : null;
  };
  const decidedBy = suggestion.decidedByName ?? (suggestion.decidedById ? nameOfUser(suggestion.decidedById) : null);
  const isDecided = suggestion.status === 'APPROVED' || suggestion.status === 'REJECTED';

  return (
    <article className="suggestions-page" aria-labelledby="suggestion-title" data-unsent={unsent ?? undefined} data-status={suggestion.status}>
      {back}
      <h1 className="suggestions-page__title" id="suggestion-title">
        {suggestion.title}
      </h1>
      {unsent && <UnsentMark state={unsent} />}
      <dl className="suggestion-state">
        <dt>
          <FormattedMessage id="suggestions.view.status" defaultMessage="Status" />
        </dt>
        <dd className="suggestion-state__status">
          <StatusText status={suggestion.status} />
        </dd>
        {suggestion.status === 'UNDER_CONSIDERATION' && (
          <>
            <dt>
              <FormattedMessage id="suggestions.view.due" defaultMessage="Decision due" />
            </dt>
            <dd className="suggestion-state__due">
              <DueText dueAt={suggestion.dueAt} status={suggestion.status} />
              <span className="suggestion-state__date">
                <FormattedDate value={suggestion.dueAt} dateStyle="medium" />
              </span>
            </dd>
            <dt>
              <FormattedMessage id="suggestions.view.holder" defaultMessage="Who decides" />
            </dt>
            <dd>
              <HolderText holder={holder} />
            </dd>
          </>
        )}
        {isDecided && (
          <>
            <dt>
              <FormattedMessage id="suggestions.view.decision" defaultMessage="Decision" />
            </dt>
            <dd className="suggestion-state__decision">
              {suggestion.status === 'APPROVED' ? (
                <FormattedMessage
                  id="suggestions.view.approvedBy"
                  defaultMessage="Approved by {who} on {date}"
                  values={{ who: decidedBy ?? '—', date: suggestion.decidedAt ? <FormattedDate value={suggestion.decidedAt} dateStyle="medium" /> : '—' }}
                />
              ) : (
                <FormattedMessage
                  id="suggestions.view.rejectedBy"
                  defaultMessage="Rejected by {who} on {date}"
                  values={{ who: decidedBy ?? '—', date: suggestion.decidedAt ? <FormattedDate value={suggestion.decidedAt} dateStyle="medium" /> : '—' }}
                />
              )}
            </dd>
            {suggestion.reviewComment && (
              <>
                <dt>
                  {suggestion.status === 'REJECTED' ? (
                    <FormattedMessage id="suggestions.view.reason" defaultMessage="Reason" />
                  ) : (
                    <FormattedMessage id="suggestions.view.reviewComment" defaultMessage="Reviewer's comment" />
                  )}
                </dt>
                <dd className="suggestion-state__comment">{suggestion.reviewComment}</dd>
              </>
            )}
          </>
        )}
        {suggestion.status === 'CLARIFICATION' && (
          <>
            <dt>
              <FormattedMessage id="suggestions.view.question" defaultMessage="Question for the author" />
            </dt>
            <dd className="suggestion-state__comment">
              {suggestion.reviewComment}
              <span className="suggestion-state__by">
                <FormattedMessage
                  id="suggestions.view.askedBy"
                  defaultMessage="({who}, {date})"
                  values={{ who: decidedBy ?? '—', date: suggestion.decidedAt ? <FormattedDate value={suggestion.decidedAt} dateStyle="medium" /> : '—' }}
                />
              </span>
            </dd>
          </>
        )}
      </dl>

      {suggestion.status === 'UNDER_CONSIDERATION' && mayReview && (
        <ReviewPanel companyId={companyId} suggestion={suggestion} member={member} actions={actions} />
      )}
      {suggestion.status === 'CLARIFICATION' && isAuthor && (
        <div className="suggestions-page__actions">
          <Link href={`${paths.company.suggestionsCreate(companyId)}?clarify=${encodeURIComponent(suggestion.id)}`} className={buttonClassName('primary')}>
            <FormattedMessage id="suggestions.clarify.open" defaultMessage="Edit and resend" />
          </Link>
        </div>
      )}
      {links?.project ? (
        <p className="suggestion-project" data-project={links.project.id}>
          <FormattedMessage
            id="suggestions.view.project"
            defaultMessage="Made into the project <link>«{name}»</link>"
            values={{ name: links.project.name, link: (chunks) => <Link href={paths.company.project(companyId, links.project?.id ?? '')}>{chunks}</Link> }}
          />
        </p>
      ) : suggestion.status === 'APPROVED' && mayReview && links !== undefined && (
        <div className="suggestions-page__actions">
          <Link href={`${paths.company.projectsCreate(companyId)}?fromSuggestion=${encodeURIComponent(suggestion.id)}`} className={buttonClassName('primary')}>
            <FormattedMessage id="suggestions.view.makeProject" defaultMessage="Make a project" />
          </Link>
        </div>
      )}

      <dl className="suggestion-view">
        <dt>
          <FormattedMessage id="suggestions.view.author" defaultMessage="Author" />
        </dt>
        <dd>
          <FormattedMessage
            id="suggestions.view.authorLine"
            defaultMessage="{name}, {date}"
            values={{ name: suggestion.authorName, date: <FormattedDate value={suggestion.submittedAt} dateStyle="medium" timeStyle="short" /> }}
          />
        </dd>
        <dt>
          <FormattedMessage id="suggestions.form.department" defaultMessage="Department" />
        </dt>
        <dd>{department ?? <FormattedMessage id="suggestions.view.unknownDepartment" defaultMessage="Not on this device yet" />}</dd>
        {suggestion.goalId !== null && (
          <>
            <dt>
              <FormattedMessage id="suggestions.view.goal" defaultMessage="Company goal" />
            </dt>
            <dd>
              {links?.goal ? (
                <Link href={paths.company.goal(companyId, links.goal.id)}>{links.goal.title}</Link>
              ) : (
                <FormattedMessage id="suggestions.view.unknownGoal" defaultMessage="Not on this device yet" />
              )}
            </dd>
          </>
        )}
        <dt>
          <FormattedMessage id="suggestions.form.problem" defaultMessage="Problem" />
        </dt>
        <dd>{suggestion.problem}</dd>
        <dt>
          <FormattedMessage id="suggestions.form.solution" defaultMessage="Proposed solution" />
        </dt>
        <dd>{suggestion.solution}</dd>
        <dt>
          <FormattedMessage id="suggestions.form.expectedEffect" defaultMessage="Expected effect" />
        </dt>
        <dd>{suggestion.expectedEffect}</dd>
        {suggestion.effectEstimate && (
          <>
            <dt>
              <FormattedMessage id="suggestions.view.estimate" defaultMessage="Estimated effect" />
            </dt>
            <dd>
              <FormattedNumber value={suggestion.effectEstimate.amountMinor / 100} style="currency" currency={suggestion.effectEstimate.currency} />
            </dd>
          </>
        )}
      </dl>
      {(suggestion.images.length > 0 || localPhotos.length > 0) && (
        <>
          <h2 className="suggestions-page__subtitle">
            <FormattedMessage id="suggestions.form.photos" defaultMessage="Photos" />
          </h2>
          <div className="suggestion-photos">
            {suggestion.images.map((image) => (
              <ServerPhoto key={image.imageId} imageLink={image.imageLink} name={image.name} />
            ))}
            {suggestion.images.length === 0 && localPhotos.map((photo) => <DevicePhoto key={photo.id} data={photo.data} type={photo.type} name={photo.name} />)}
          </div>
        </>
      )}
      <h2 className="suggestions-page__subtitle">
        <FormattedMessage id="suggestions.view.history" defaultMessage="History" />
      </h2>
      <HistoryList suggestion={suggestion} departmentNames={departmentNames} nameOfUser={nameOfUser} />
    </article>
  );
}
