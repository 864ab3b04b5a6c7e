// The notifications' outbox kind, declared once for the app's registry (src/app/outbox-kinds.ts): what the
// Unsent screen calls a queued "mark read", that nothing of it is edited, how the server's answer is stored,
// and that the server's push takes it (reads go in batches). No React here: the service worker imports this
// module through the registry.
import type { MessageDescriptor } from 'react-intl';
import type { OutboxRow } from '../../lib/db/database';
import { NOTIFICATION_READ_KIND, idsOfReadRow, storeNotificationsRead } from './store';

const label: MessageDescriptor = { id: 'notifications.outbox.read', defaultMessage: 'Notifications marked as read ({count})' };

export const notificationReadOutboxKind = {
  kind: NOTIFICATION_READ_KIND,
  label,
  labelValues: (row: OutboxRow): Record<string, string> => ({ count: String(idsOfReadRow(row).length) }),
  /** Nothing to edit: the user may retry or discard it. */
  editHref: (): string | null => null,
  // The store is loaded already: the bell in the header reads it.
  loadSuccessHandler: () => Promise.resolve(storeNotificationsRead),
  /** POST /companies/{companyId}/notifications/read is a pushable operation of the server. */
  pushable: true,
};
