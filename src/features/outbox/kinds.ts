// What the Unsent screen needs to know of a row's kind, and nothing more: how to name it, where it is
// edited and where the thing it changes is seen. The app gives it (src/app/outbox-kinds.ts composes every feature's kinds), so this feature never
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
  /**
   * Where the user sees the entity the row changes (a decision's proposal), so a refused change can be set
   * beside what the server holds; absent or null: nowhere.
   */
  viewHref?: string | null;
  /** The words of that link ("Open the proposal"); "Open" when absent. */
  viewLabel?: MessageDescriptor;
}

/** The words of a view link whose kind names none. */
export const VIEW_LABEL: MessageDescriptor = { id: 'outbox.view', defaultMessage: 'Open' };

/**
 * How to show `row`. `entity` is the device's copy of the mirrored row its entity key names ('suggestions:<id>'),
 * when there is one: stored data, so a kind checks what it reads of it (a decision names its proposal's title).
 */
export type DescribeUnsentRow = (row: OutboxRow, entity?: unknown) => UnsentRowView;

/** The name of a row whose kind nobody declared. */
export const UNKNOWN_CHANGE_LABEL: MessageDescriptor = { id: 'outbox.kind.unknown', defaultMessage: 'A change' };

/** Without a registry: every row is "A change", none is editable here. */
export const describeAnyUnsentRow: DescribeUnsentRow = () => ({ label: UNKNOWN_CHANGE_LABEL, values: {}, editHref: null });
