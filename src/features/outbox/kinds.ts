// What the Unsent screen needs to know of a row's kind, and nothing more: how to name it and where it is
// edited. The app gives it (src/app/outbox-kinds.ts composes every feature's kinds), so this feature never
// names a kind and shows any kind it is given. No React here: the registry that reads the generic label
// is imported by the service worker too.
import type { MessageDescriptor } from 'react-intl';
import type { OutboxRow } from '../../lib/db/database';

/** How the Unsent screen shows one row. */
export interface UnsentRowView {
  label: MessageDescriptor;
  /** The label's values, read from the row. */
  values: Record<string, string>;
  /** Where the user edits the row and resends it (offered only while the server refuses it); null: nowhere. */
  editHref: string | null;
}

export type DescribeUnsentRow = (row: OutboxRow) => UnsentRowView;

/** The name of a row whose kind nobody declared. */
export const UNKNOWN_CHANGE_LABEL: MessageDescriptor = { id: 'outbox.kind.unknown', defaultMessage: 'A change' };

/** Without a registry: every row is "A change", none is editable here. */
export const describeAnyUnsentRow: DescribeUnsentRow = () => ({ label: UNKNOWN_CHANGE_LABEL, values: {}, editHref: null });
