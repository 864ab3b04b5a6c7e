import type { ComponentType } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import type { OutboxRow } from '../../../lib/db/database';
import type { UnreadableOutboxRow } from '../../../lib/outbox/outbox';
import { PageSpinner } from '../../../ui/spinner';
import { UnreadableItem } from '../components/unreadable-item';
import { UnsentItem } from '../components/unsent-item';
import { useUnsentActions, useUnsentItems, type UnsentActions } from '../hooks';
import { OutboxKindsProvider } from '../kinds-context';
import type { DescribeUnsentRow } from '../kinds';
import '../outbox.css';

type Entry = { seq: number; row: OutboxRow; unreadable?: undefined } | { seq: number; row?: undefined; unreadable: UnreadableOutboxRow };

/** Readable and unreadable rows in one list, in send order. */
function entriesOf(rows: readonly OutboxRow[], unreadable: readonly UnreadableOutboxRow[]): Entry[] {
  const entries: Entry[] = [...rows.map((row) => ({ seq: row.seq, row })), ...unreadable.map((item) => ({ seq: item.seq, unreadable: item }))];
  return entries.sort((a, b) => a.seq - b.seq);
}

export interface UnsentListProps {
  rows: readonly OutboxRow[];
  unreadable: readonly UnreadableOutboxRow[];
  actions: UnsentActions;
}

/** Every write the header's badge counts, oldest first; "everything has been sent" when there is none. */
export function UnsentList({ rows, unreadable, actions }: UnsentListProps) {
  const entries = entriesOf(rows, unreadable);
  if (entries.length === 0) {
    return (
      <p className="unsent-page__empty" role="status">
        <FormattedMessage id="outbox.empty" defaultMessage="Everything has been sent." />
      </p>
    );
  }
  return (
    <ul className="unsent-list">
      {entries.map((entry) =>
        entry.row ? (
          <UnsentItem key={`row-${entry.row.id}`} row={entry.row} onRetry={actions.retry} onDiscard={actions.discard} />
        ) : (
          <UnreadableItem key={`seq-${entry.seq}`} item={entry.unreadable} onDiscard={actions.discardUnreadable} />
        ),
      )}
    </ul>
  );
}

/** "Unsent": every write of this user that the server has not confirmed, oldest first. */
export default function UnsentPage() {
  const contents = useUnsentItems();
  const actions = useUnsentActions();
  if (contents === undefined) return <PageSpinner />;
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
      <UnsentList rows={contents.rows} unreadable={contents.unreadable} actions={actions} />
    </section>
  );
}

/** The page with the app's outbox kinds (the route composes it: a feature does not import src/app). */
export function withOutboxKinds(describe: DescribeUnsentRow): ComponentType {
  function UnsentPageWithKinds() {
    return (
      <OutboxKindsProvider describe={describe}>
        <UnsentPage />
      </OutboxKindsProvider>
    );
  }
  return UnsentPageWithKinds;
}
