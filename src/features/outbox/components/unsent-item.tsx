import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import type { OutboxRow } from '../../../lib/db/database';
import { Button, buttonClassName } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';

/** The company of a write, read from its path ('/api/v1/companies/{companyId}/...'). */
function companyOf(row: OutboxRow): string | null {
  const match = /^\/api\/v1\/companies\/([^/]+)\//.exec(row.path);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

function titleOf(row: OutboxRow): string | null {
  const body = row.body;
  return typeof body === 'object' && body !== null && typeof (body as { title?: unknown }).title === 'string' ? (body as { title: string }).title : null;
}

export interface UnsentItemProps {
  row: OutboxRow;
  onRetry: (id: string) => Promise<void>;
  onDiscard: (id: string) => Promise<void>;
}

/** One unsent write: what, when, its state and last error, with retry, edit-and-resend and discard. */
export function UnsentItem({ row, onRetry, onDiscard }: UnsentItemProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const title = titleOf(row);
  const companyId = companyOf(row);
  const isStuck = row.status === 'conflict' || row.status === 'failed';
  const canEdit = isStuck && row.kind === 'suggestion.create' && companyId !== null;

  const what =
    row.kind === 'suggestion.create'
      ? intl.formatMessage({ id: 'outbox.kind.suggestionCreate', defaultMessage: 'Proposal “{title}”' }, { title: title ?? '' })
      : intl.formatMessage({ id: 'outbox.kind.other', defaultMessage: 'A change ({kind})' }, { kind: row.kind });

  const askDiscard = async () => {
    const isSure = await dialog.confirm({
      title: intl.formatMessage({ id: 'outbox.discard.title', defaultMessage: 'Discard this change?' }),
      content: intl.formatMessage(
        { id: 'outbox.discard.text', defaultMessage: '{what} will be deleted from this device and never sent. This cannot be undone.' },
        { what },
      ),
      confirmText: intl.formatMessage({ id: 'outbox.discard.confirm', defaultMessage: 'Discard' }),
      closeText: intl.formatMessage({ id: 'outbox.discard.keep', defaultMessage: 'Keep it' }),
    });
    if (isSure) await onDiscard(row.id);
  };

  return (
    <li className="unsent-item" data-status={row.status} data-kind={row.kind}>
      <div className="unsent-item__what">{what}</div>
      <div className="unsent-item__meta">
        <span>
          <FormattedDate value={row.createdAt} dateStyle="medium" timeStyle="short" />
        </span>
        <span className="unsent-item__state">
          {row.status === 'conflict' ? (
            <FormattedMessage id="outbox.state.conflict" defaultMessage="Refused: the data changed on the server" />
          ) : row.status === 'failed' ? (
            <FormattedMessage id="outbox.state.failed" defaultMessage="Refused by the server" />
          ) : row.status === 'sending' ? (
            <FormattedMessage id="outbox.state.sending" defaultMessage="Sending…" />
          ) : (
            <FormattedMessage id="outbox.state.pending" defaultMessage="Waiting to send" />
          )}
        </span>
      </div>
      {row.lastError && (
        <p className="unsent-item__error">
          {row.lastError.status === 0 ? (
            <FormattedMessage id="outbox.error.network" defaultMessage="Last try: no connection to the server." />
          ) : (
            <FormattedMessage id="outbox.error.server" defaultMessage="Last try: {message}" values={{ message: row.lastError.message }} />
          )}
          {row.lastError.errors && (
            <span className="unsent-item__field-errors">{Object.values(row.lastError.errors).join(' ')}</span>
          )}
        </p>
      )}
      <div className="unsent-item__actions">
        <Button variant="secondary" onClick={() => void onRetry(row.id)} disabled={row.status === 'sending'}>
          <FormattedMessage id="outbox.retry" defaultMessage="Try again" />
        </Button>
        {canEdit && (
          <Link href={`${paths.company.suggestionsCreate(companyId)}?resend=${encodeURIComponent(row.id)}`} className={buttonClassName('secondary')}>
            <FormattedMessage id="outbox.edit" defaultMessage="Edit and resend" />
          </Link>
        )}
        <Button variant="danger" onClick={() => void askDiscard()}>
          <FormattedMessage id="outbox.discard.confirm" defaultMessage="Discard" />
        </Button>
      </div>
    </li>
  );
}
