import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { object, refine, size } from 'superstruct';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { canDistributeSuggestion, type MemberView } from '../../../domain/permissions';
import { SUGGESTION_COMMENT_MAX, type Suggestion } from '../../../domain/suggestion';
import { multilineText } from '../../../domain/validation';
import { Button, buttonClassName } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { useForm } from '../../../ui/form';
import { Textarea } from '../../../ui/textarea';
import type { ReviewActions } from '../hooks';

/** The reason or the question: required, the server's limit. */
const CommentStruct = object({
  comment: size(
    refine(multilineText(), 'required', (value) => value.trim().length > 0),
    0,
    SUGGESTION_COMMENT_MAX,
  ),
});

type Mode = 'REJECTED' | 'CLARIFICATION';

interface CommentFormProps {
  mode: Mode;
  onSubmit: (comment: string) => Promise<void>;
  onCancel: () => void;
}

/** The reason of a rejection or the question for the author, required, inline under the actions. */
function CommentForm({ mode, onSubmit, onCancel }: CommentFormProps) {
  const intl = useIntl();
  const form = useForm({
    struct: CommentStruct,
    messages: {
      required:
        mode === 'REJECTED'
          ? { id: 'suggestions.review.reasonRequired', defaultMessage: 'Give the reason for rejecting it: the author will read it.' }
          : { id: 'suggestions.review.questionRequired', defaultMessage: 'Write your question for the author.' },
    },
  });
  const label =
    mode === 'REJECTED'
      ? intl.formatMessage({ id: 'suggestions.review.reason', defaultMessage: 'Reason for the rejection' })
      : intl.formatMessage({ id: 'suggestions.review.question', defaultMessage: 'Your question for the author' });
  return (
    <form className="review-panel__form" noValidate onSubmit={form.handleSubmit((value) => onSubmit(value.comment.trim()))} data-mode={mode}>
      <Textarea {...form.textField('comment', label)} maxLength={SUGGESTION_COMMENT_MAX} autoHeight />
      <div className="suggestions-page__actions">
        <Button type="submit" variant={mode === 'REJECTED' ? 'danger' : 'primary'} loading={form.isSubmitting} data-action="review-submit">
          {mode === 'REJECTED' ? (
            <FormattedMessage id="suggestions.review.rejectSubmit" defaultMessage="Reject the proposal" />
          ) : (
            <FormattedMessage id="suggestions.review.clarifySubmit" defaultMessage="Send the question" />
          )}
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={form.isSubmitting}>
          <FormattedMessage id="suggestions.review.cancel" defaultMessage="Cancel" />
        </Button>
      </div>
    </form>
  );
}

export interface ReviewPanelProps {
  companyId: string;
  suggestion: Suggestion;
  member: MemberView;
  actions: ReviewActions;
}

/**
 * What whoever may decide an open proposal can do with it: approve (after a confirmation), reject with a
 * reason, ask the author a question, or pass it to another department (when they may). Decisions are stored
 * on the device and sent by the outbox, so this works offline; the page then shows "waiting to send".
 */
export function ReviewPanel({ companyId, suggestion, member, actions }: ReviewPanelProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const [mode, setMode] = useState<Mode | null>(null);
  const [isApproving, setApproving] = useState(false);
  const mayDistribute = useMemo(() => canDistributeSuggestion(member, suggestion), [member, suggestion]);

  const approve = async () => {
    const isSure = await dialog.confirm({
      title: intl.formatMessage({ id: 'suggestions.review.approveTitle', defaultMessage: 'Approve this proposal?' }),
      content: intl.formatMessage(
        { id: 'suggestions.review.approveText', defaultMessage: '“{title}” will be approved, and its author told so. This cannot be undone.' },
        { title: suggestion.title },
      ),
      confirmText: intl.formatMessage({ id: 'suggestions.review.approve', defaultMessage: 'Approve' }),
      closeText: intl.formatMessage({ id: 'suggestions.review.cancel', defaultMessage: 'Cancel' }),
    });
    if (!isSure) return;
    setApproving(true);
    try {
      await actions.review(suggestion.id, { decision: 'APPROVED', comment: null }, member);
    } catch (error) {
      await dialog.error(error instanceof Error && error.message !== '' ? { content: error.message } : {});
    } finally {
      setApproving(false);
    }
  };

  return (
    <section className="review-panel" aria-labelledby="review-panel-title">
      <h2 className="suggestions-page__subtitle" id="review-panel-title">
        <FormattedMessage id="suggestions.review.title" defaultMessage="Your decision" />
      </h2>
      <div className="suggestions-page__actions">
        <Button onClick={() => void approve()} loading={isApproving} disabled={mode !== null} data-action="review-approve">
          <FormattedMessage id="suggestions.review.approve" defaultMessage="Approve" />
        </Button>
        <Button variant="danger" onClick={() => setMode('REJECTED')} disabled={mode !== null || isApproving} data-action="review-reject">
          <FormattedMessage id="suggestions.review.reject" defaultMessage="Reject" />
        </Button>
        <Button variant="secondary" onClick={() => setMode('CLARIFICATION')} disabled={mode !== null || isApproving} data-action="review-clarify">
          <FormattedMessage id="suggestions.review.clarify" defaultMessage="Ask for clarification" />
        </Button>
        {mayDistribute && (
          <Link href={paths.company.suggestionDistribute(companyId, suggestion.id)} className={buttonClassName('secondary')}>
            <FormattedMessage id="suggestions.review.distribute" defaultMessage="Pass to another department" />
          </Link>
        )}
      </div>
      {mode !== null && (
        <CommentForm
          key={mode}
          mode={mode}
          onCancel={() => setMode(null)}
          onSubmit={async (comment) => {
            await actions.review(suggestion.id, { decision: mode, comment }, member);
            setMode(null);
          }}
        />
      )}
    </section>
  );
}
