import { FormattedMessage } from 'react-intl';
import type { OutboxStatus } from '../../../lib/db/database';

/** The visible "waiting to send" mark of a proposal with unsent changes (or that the server refused it). */
export function UnsentMark({ state }: { state: OutboxStatus }) {
  const isStuck = state === 'conflict' || state === 'failed';
  return (
    <span className={`unsent-mark${isStuck ? ' unsent-mark--stuck' : ''}`} data-unsent={state}>
      {isStuck ? (
        <FormattedMessage id="suggestions.unsent.stuck" defaultMessage="Not sent: see Unsent" />
      ) : (
        <FormattedMessage id="suggestions.unsent.waiting" defaultMessage="Waiting to send" />
      )}
    </span>
  );
}
