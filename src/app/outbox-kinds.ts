// The outbox-kind registry: every kind of outbox row the features write, declared once by its feature
// (label, edit link, success handler) and composed here, so the page's replayer, the service worker's
// replayer and the Unsent screen read one table instead of naming kinds. A new kind (say, an approval) is
// one `outbox-kind.ts` in its feature and one line in `outboxKinds`. A kind whose write the server's push
// takes (POST /sync/push, docs/api.md "Push": its method and path are a pushable operation there) says so
// with `pushable: true`, and the replayers send its rows in batches (`isPushableOutboxRow`).
// Guarantees: a kind nobody declared still works everywhere: /unsent names it "A change" (no edit link,
// retry and discard as for any row), and its success handler stores the server's answer when the row's
// entity key names a mirrored table and the answer passes that table's struct (else the next pull brings
// it); each kind is declared once (duplicates throw at load). No React here, and only React-free feature
// modules are imported: the service worker imports this module (eslint.config.js allows sw/ exactly this
// file of src/app).
import type { MessageDescriptor } from 'react-intl';
import { MIRROR_TABLES, type MirrorTable, type OutboxRow } from '../lib/db/database';
import { MIRROR_ROW_STRUCTS } from '../lib/db/rows';
import type { SuccessHandler } from '../lib/outbox/replayer';
import { UNKNOWN_CHANGE_LABEL, type UnsentRowView } from '../features/outbox/kinds';
import { notificationReadOutboxKind } from '../features/notifications/outbox-kind';
import { goalOutboxKinds } from '../features/goals/outbox-kind';
import { projectOutboxKinds } from '../features/projects/outbox-kind';
import { registryOutboxKinds } from '../features/registry/outbox-kind';
import {
  suggestionCreateOutboxKind,
  suggestionDistributeOutboxKind,
  suggestionReviewOutboxKind,
  suggestionReviseOutboxKind,
} from '../features/suggestions/outbox-kind';

export interface OutboxKind {
  /** The rows' `kind`, '<entity>.<action>' (e.g. 'suggestion.create'). */
  kind: string;
  /** What the Unsent screen calls a row of this kind. */
  label: MessageDescriptor;
  /**
   * The label's values, read from the row and from `entity`, the device's copy of the mirrored row its
   * entity key names, when the screen has it (both are stored data: check what is read).
   */
  labelValues?: (row: OutboxRow, entity?: unknown) => Record<string, string>;
  /** Where the user edits a refused row and resends it; absent or null: nowhere. */
  editHref?: (row: OutboxRow) => string | null;
  /** Where the user sees what the row changes (the Unsent screen's "Open" link); absent or null: nowhere. */
  viewHref?: (row: OutboxRow) => string | null;
  /** The words of that link ("Open the proposal"); the screen's "Open" when absent. */
  viewLabel?: MessageDescriptor;
  /**
   * Loads the handler that stores the server's answer (it runs in the transaction that removes the sent row).
   * A feature's handlers live in its store, which only its own screens need: the replayer loads the handler
   * when a row of the kind has been answered, before that transaction, so the registry itself stays light (every
   * signed-in screen and the service worker load it).
   */
  loadSuccessHandler: () => Promise<SuccessHandler>;
  /**
   * The server's POST /sync/push applies this kind's write (server/features/push/routes.ts,
   * PUSHABLE_OPERATIONS): its rows may go in batches. Absent or false: one request per row.
   */
  pushable?: boolean;
}

/** Every declared kind. */
export const outboxKinds: readonly OutboxKind[] = [
  suggestionCreateOutboxKind,
  suggestionReviewOutboxKind,
  suggestionDistributeOutboxKind,
  suggestionReviseOutboxKind,
  notificationReadOutboxKind,
  ...goalOutboxKinds,
  ...projectOutboxKinds,
  ...registryOutboxKinds,
];

function mirrorTableOf(entityKey: string): MirrorTable | null {
  const table = entityKey.slice(0, entityKey.indexOf(':'));
  return (MIRROR_TABLES as readonly string[]).includes(table) ? (table as MirrorTable) : null;
}

/**
 * The success handler of a kind nobody declared: the server's entity goes into the mirror when the row's
 * entity key names a mirrored table (`goals:<id>` and the like) and the answer passes that table's struct;
 * otherwise nothing is stored and the next pull settles it.
 */
export const storeSentEntity: SuccessHandler = async ({ db, row, data }) => {
  const table = mirrorTableOf(row.entityKey);
  if (table === null || !MIRROR_ROW_STRUCTS[table].is(data)) return;
  await db.mirror(table).put({ ...data, ownerUserId: row.ownerUserId });
};

/** What an undeclared kind gets. */
export const unknownOutboxKind: Omit<OutboxKind, 'kind'> = { label: UNKNOWN_CHANGE_LABEL, loadSuccessHandler: () => Promise.resolve(storeSentEntity) };

function indexKinds(kinds: readonly OutboxKind[]): ReadonlyMap<string, OutboxKind> {
  const byKind = new Map<string, OutboxKind>();
  for (const declared of kinds) {
    if (byKind.has(declared.kind)) throw new Error(`The outbox kind ${declared.kind} is declared twice`);
    byKind.set(declared.kind, declared);
  }
  return byKind;
}

const byKind = indexKinds(outboxKinds);

/** The declaration of `kind`, or the generic one for a kind nobody declared. */
export function outboxKindOf(kind: string): OutboxKind {
  return byKind.get(kind) ?? { ...unknownOutboxKind, kind };
}

/**
 * The replayer's handlers (page and worker): loads the declared kind's own, or `storeSentEntity` for a kind
 * nobody declared. A failed load rejects: the replayer then keeps the row (the server's answer is not lost, the
 * row is sent again under its idempotency key and answered the same).
 */
export function loadOutboxSuccessHandler(kind: string): Promise<SuccessHandler> {
  return outboxKindOf(kind).loadSuccessHandler();
}

/**
 * The replayer's `isPushable` (page and worker): rows of a kind declared pushable. An undeclared kind is
 * never pushed (the server would answer that operation 404), its rows go one by one.
 */
export function isPushableOutboxRow(row: OutboxRow): boolean {
  return byKind.get(row.kind)?.pushable === true;
}

/** How the Unsent screen shows `row` (src/features/outbox reads it through its OutboxKindsProvider). */
export function describeOutboxRow(row: OutboxRow, entity?: unknown): UnsentRowView {
  const declared = outboxKindOf(row.kind);
  const view: UnsentRowView = { label: declared.label, values: declared.labelValues?.(row, entity) ?? {}, editHref: declared.editHref?.(row) ?? null };
  // Only a kind that has a place to see its entity names one.
  if (declared.viewHref) view.viewHref = declared.viewHref(row);
  if (declared.viewLabel) view.viewLabel = declared.viewLabel;
  return view;
}
