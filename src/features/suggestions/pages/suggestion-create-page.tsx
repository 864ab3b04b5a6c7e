import { FormattedDate, FormattedMessage } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import type { SuggestionInput } from '../../../domain/suggestion';
import { PageSpinner } from '../../../ui/spinner';
import { SuggestionForm } from '../components/suggestion-form';
import { useCurrentUser } from '../../../lib/app-state';
import { REVISABLE_STATUSES } from '../../../lib/outbox/outbox';
import { useDepartments, useGoalOptions, useReviewActions, useStartBlockers, useSubmitSuggestion, useSuggestion, useUnsentSuggestionRow, type SuggestionView } from '../hooks';
import { SUGGESTION_REVISE_KIND } from '../kind-names';
import { StartBlockedNotice } from '../components/start-blocked-notice';
import type { SuggestionDraft } from '../store';
import '../suggestions.css';

/** The draft an unsent proposal's outbox row holds (for "edit and resend"). */
function draftOf(companyId: string, body: unknown): SuggestionDraft | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const input = body as Partial<SuggestionInput>;
  return {
    companyId,
    title: input.title ?? '',
    problem: input.problem ?? '',
    solution: input.solution ?? '',
    expectedEffect: input.expectedEffect ?? '',
    effectEstimate: input.effectEstimate ?? null,
    departmentId: input.departmentId ?? '',
    goalId: input.goalId ?? null,
  };
}

/** Whether the author may clarify and resend it: asked to, or an earlier resend of it was refused and waits. */
function isClarifiable(view: SuggestionView): boolean {
  if (view.suggestion.status === 'CLARIFICATION') return true;
  const row = view.outboxRow;
  return row !== null && row.kind === SUGGESTION_REVISE_KIND && REVISABLE_STATUSES.includes(row.status);
}

/**
 * The author's answer to a clarification question (`?clarify=<proposal id>`): the question, and the proposal
 * form filled from the device's copy; saving sends the clarified text (`suggestion.revise`, through the
 * outbox, so offline too) and opens the proposal. The department and the photos stay as they are.
 */
function ClarifyForm({ companyId, suggestionId }: { companyId: string; suggestionId: string }) {
  const [, navigate] = useLocation();
  const user = useCurrentUser();
  const view = useSuggestion(companyId, suggestionId);
  const departments = useDepartments(companyId);
  const actions = useReviewActions(companyId);
  if (view === undefined || departments === undefined) return <PageSpinner />;
  if (view === null || view.suggestion.authorId !== user.id || !isClarifiable(view)) {
    return (
      <p role="status">
        <FormattedMessage id="suggestions.clarify.gone" defaultMessage="This proposal is not waiting for your clarification." />
      </p>
    );
  }
  const { suggestion } = view;
  const initial: SuggestionDraft = {
    companyId,
    title: suggestion.title,
    problem: suggestion.problem,
    solution: suggestion.solution,
    expectedEffect: suggestion.expectedEffect,
    effectEstimate: suggestion.effectEstimate,
    departmentId: suggestion.departmentId,
  };
  return (
    <>
      {suggestion.reviewComment && (
        <div className="clarify-question" role="note">
          <p className="clarify-question__label">
            <FormattedMessage
              id="suggestions.clarify.asked"
              defaultMessage="{who} asks ({date}):"
              values={{
                who: suggestion.decidedByName ?? '—',
                date: suggestion.decidedAt ? <FormattedDate value={suggestion.decidedAt} dateStyle="medium" /> : '—',
              }}
            />
          </p>
          <p className="clarify-question__text">{suggestion.reviewComment}</p>
        </div>
      )}
      <SuggestionForm
        key={suggestion.id}
        companyId={companyId}
        // The department does not change with a clarification: it is the only choice.
        departments={departments.filter((department) => department.id === suggestion.departmentId)}
        initial={initial}
        onSubmit={async (draft) => {
          await actions.revise(suggestion.id, {
            title: draft.title,
            problem: draft.problem,
            solution: draft.solution,
            expectedEffect: draft.expectedEffect,
            effectEstimate: draft.effectEstimate,
          });
          navigate(paths.company.suggestion(companyId, suggestion.id));
        }}
      />
    </>
  );
}

export default function SuggestionCreatePage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const search = new URLSearchParams(useSearch());
  const clarifyOf = search.get('clarify');
  if (clarifyOf !== null) {
    return (
      <section className="suggestions-page" aria-labelledby="suggestion-create-title">
        <p className="suggestions-page__back">
          <Link href={paths.company.suggestion(companyId, clarifyOf)}>
            <FormattedMessage id="suggestions.distribute.back" defaultMessage="Back to the proposal" />
          </Link>
        </p>
        <h1 className="suggestions-page__title" id="suggestion-create-title">
          <FormattedMessage id="suggestions.clarify.title" defaultMessage="Clarify and send again" />
        </h1>
        <ClarifyForm companyId={companyId} suggestionId={clarifyOf} />
      </section>
    );
  }
  return <NewSuggestionPage companyId={companyId} resendOf={search.get('resend')} />;
}

function NewSuggestionPage({ companyId, resendOf }: { companyId: string; resendOf: string | null }) {
  const [, navigate] = useLocation();
  const departments = useDepartments(companyId);
  const goals = useGoalOptions(companyId);
  const blockers = useStartBlockers(companyId);
  const resendRow = useUnsentSuggestionRow(resendOf);
  const submit = useSubmitSuggestion();
  const isResend = resendOf !== null;

  // The title shows at once; the form once what it offers (departments, goals) is read from the device.
  const isLoading = departments === undefined || goals === undefined || blockers === undefined || (isResend && resendRow === undefined);
  const initial = isResend && resendRow ? draftOf(companyId, resendRow.body) : undefined;

  return (
    <section className="suggestions-page" aria-labelledby="suggestion-create-title">
      <p className="suggestions-page__back">
        <Link href={paths.company.mySuggestions(companyId)}>
          <FormattedMessage id="suggestions.backToMine" defaultMessage="My proposals" />
        </Link>
      </p>
      <h1 className="suggestions-page__title" id="suggestion-create-title">
        {isResend ? (
          <FormattedMessage id="suggestions.resend.title" defaultMessage="Edit and send again" />
        ) : (
          <FormattedMessage id="suggestions.create.title" defaultMessage="New proposal" />
        )}
      </h1>
      {isLoading ? (
        <PageSpinner />
      ) : blockers.length > 0 ? (
        <StartBlockedNotice missing={blockers} />
      ) : isResend && !resendRow ? (
        <p role="status">
          <FormattedMessage id="suggestions.resend.gone" defaultMessage="This proposal is no longer waiting to be sent." />
        </p>
      ) : (
        <SuggestionForm
          key={resendOf ?? 'new'}
          companyId={companyId}
          departments={departments}
          goals={goals}
          initial={initial}
          onSubmit={async (draft, photos) => {
            const result = await submit(draft, photos, resendOf);
            const query = new URLSearchParams({ id: result.id });
            if (!result.isStoragePersistent) query.set('evictable', '1');
            navigate(`${paths.company.suggestionsCreateResult(companyId)}?${query.toString()}`);
          }}
        />
      )}
    </section>
  );
}
