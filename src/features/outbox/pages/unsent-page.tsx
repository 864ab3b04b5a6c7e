import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { UnsentItem } from '../components/unsent-item';
import { useUnsentActions, useUnsentItems } from '../hooks';
import '../outbox.css';

/** "Unsent": every write of this user that the server has not confirmed, oldest first. */
export default function UnsentPage() {
  const items = useUnsentItems();
  const actions = useUnsentActions();
  if (items === undefined) return <PageSpinner />;
  return (
    <section className="unsent-page" aria-labelledby="unsent-title">
      <p className="unsent-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <h1 className="unsent-page__title" id="unsent-title">
        <FormattedMessage id="outbox.title" defaultMessage="Unsent" />
      </h1>
      <p className="unsent-page__lead">
        <FormattedMessage
          id="outbox.lead"
          defaultMessage="Changes made on this device that the server has not confirmed yet. They are sent by themselves when there is a connection; refused ones wait here for you."
        />
      </p>
      {items.length === 0 ? (
        <p className="unsent-page__empty" role="status">
          <FormattedMessage id="outbox.empty" defaultMessage="Everything has been sent." />
        </p>
      ) : (
        <ul className="unsent-list">
          {items.map((row) => (
            <UnsentItem key={row.id} row={row} onRetry={actions.retry} onDiscard={actions.discard} />
          ))}
        </ul>
      )}
    </section>
  );
}
