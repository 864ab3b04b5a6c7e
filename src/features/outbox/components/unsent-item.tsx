import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { OutboxRow } from '../../../lib/db/database';
import { REVISABLE_STATUSES } from '../../../lib/outbox/outbox';
import { Button, buttonClassName } from '../../../ui/button';
import { VIEW_LABEL } from '../kinds';
import { useDescribeUnsentRow } from '../kinds-context';
import { useConfirmDiscard } from './use-confirm-discard';
import { useUnsentEntity } from './use-unsent-entity';

export interface UnsentItemProps {
  row: OutboxRow;
  onRetry: (id: string) => Promise<void>;
  onDiscard: (id: string) => Promise<void>;
}

/**
 * One unsent write: what (named by its kind's declaration, which may read the device's copy of the entity it
 * changes), when, its state and last error, with retry, discard and, while the server refuses it,
 * edit-and-resend where its kind has a form for it. A conflict (the server's data changed meanwhile, e.g.
 * someone else decided the proposal first) shows both sides: the user's change as the label names it, and what
 * the server says happened, with a link to open the entity where its kind has a page for it.
 */
export function UnsentItem({ row, onRetry, onDiscard }: UnsentItemProps) {
  const intl = useIntl();
  const confirmDiscard = useConfirmDiscard();
  const entity = useUnsentEntity(row);
  const view = useDescribeUnsentRow()(row, entity);
  const viewHref = view.viewHref ?? null;
  // A row that is waiting or being sent may already be on the wire under its key: only a refused one is edited.
  const editHref = REVISABLE_STATUSES.includes(row.status) ? view.editHref : null;
  const what = intl.formatMessage(view.label, view.values);

  const askDiscard = async () => {
    const isSure = await confirmDiscard(what);
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
          ) : row.status === 'conflict' ? (
            <FormattedMessage id="outbox.error.conflict" defaultMessage="Meanwhile on the server: {message}" values={{ message: row.lastError.message }} />
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
        {viewHref !== null && (
          <Link href={viewHref} className={buttonClassName('secondary')}>
            {intl.formatMessage(view.viewLabel ?? VIEW_LABEL)}
          </Link>
        )}
        {editHref !== null && (
          <Link href={editHref} className={buttonClassName('secondary')}>
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
