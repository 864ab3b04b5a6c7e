import { FormattedMessage } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import type { SuggestionInput } from '../../../domain/suggestion';
import { PageSpinner } from '../../../ui/spinner';
import { SuggestionForm } from '../components/suggestion-form';
import { useDepartments, useStartBlockers, useSubmitSuggestion, useUnsentSuggestionRow } from '../hooks';
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
  };
}

export default function SuggestionCreatePage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const resendOf = new URLSearchParams(useSearch()).get('resend');
  const [, navigate] = useLocation();
  const departments = useDepartments(companyId);
  const blockers = useStartBlockers(companyId);
  const resendRow = useUnsentSuggestionRow(resendOf);
  const submit = useSubmitSuggestion();
  const isResend = resendOf !== null;

  if (departments === undefined || blockers === undefined || (isResend && resendRow === undefined)) return <PageSpinner />;
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
      {blockers.length > 0 ? (
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
