import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import type { UnreadableOutboxRow } from '../../../lib/outbox/outbox';
import { Button } from '../../../ui/button';
import { useConfirmDiscard } from './use-confirm-discard';

export interface UnreadableItemProps {
  item: UnreadableOutboxRow;
  onDiscard: (seq: number) => Promise<void>;
}

/**
 * A stored write this version of the app cannot read (written by another version, or damaged): it is never
 * sent, but it is listed, so the list and the header's count agree, and the user may discard it.
 */
export function UnreadableItem({ item, onDiscard }: UnreadableItemProps) {
  const intl = useIntl();
  const confirmDiscard = useConfirmDiscard();
  const what = intl.formatMessage({ id: 'outbox.unreadable.what', defaultMessage: 'A change this version of the app cannot read' });

  const askDiscard = async () => {
    const isSure = await confirmDiscard(what);
    if (isSure) await onDiscard(item.seq);
  };

  return (
    <li className="unsent-item" data-status="unreadable">
      <div className="unsent-item__what">{what}</div>
      <div className="unsent-item__meta">
        {item.createdAt !== null && (
          <span>
            <FormattedDate value={item.createdAt} dateStyle="medium" timeStyle="short" />
          </span>
        )}
        <span className="unsent-item__state">
          <FormattedMessage id="outbox.state.unreadable" defaultMessage="Cannot be sent" />
        </span>
      </div>
      <p className="unsent-item__error">
        <FormattedMessage
          id="outbox.unreadable.hint"
          defaultMessage="Another version of the app saved it, or it was damaged on this device. After an update of the app it may be sent; otherwise discard it."
        />
      </p>
      <div className="unsent-item__actions">
        <Button variant="danger" onClick={() => void askDiscard()}>
          <FormattedMessage id="outbox.discard.confirm" defaultMessage="Discard" />
        </Button>
      </div>
    </li>
  );
}
