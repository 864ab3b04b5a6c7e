// The goals' outbox kinds, declared once for the app's registry (src/app/outbox-kinds.ts): what the Unsent
// screen calls a queued goal, an owner's edit of one and an action on one, where the user edits a refused one
// or opens the goal, how the server's answer is stored, and that the server's push takes them (they go in
// batches). No React here: the service worker imports this module through the registry. Stored rows and
// mirrored goals are untrusted: every value read from them is checked.
import type { MessageDescriptor } from 'react-intl';
import { paths } from '../../domain/paths';
import type { OutboxRow } from '../../lib/db/database';
import { labelTextOf, rowEntityOf, stringFieldOf, type RowEntity } from '../../lib/outbox/kind-helpers';
import { goalTitleOf } from './list';
import { GOAL_ACTION_KIND, GOAL_CREATE_KIND, GOAL_EDIT_KIND } from './kind-names';

/** The store, with its handler, loads when the server has answered a goal's row. */
const loadStoreSentGoal = () => import('./store').then((store) => store.storeSentGoal);

/** The company and goal of a row ('/api/v1/companies/{c}/goals' with the goal in its entity key, or '.../goals/{g}[/actions]'). */
function goalOf(row: OutboxRow): RowEntity | null {
  return rowEntityOf(row, /^\/api\/v1\/companies\/([^/]+)\/goals(?:\/([^/]+)(?:\/actions)?)?$/, 'goals');
}

function titleValues(source: unknown): Record<string, string> {
  const title = goalTitleOf(source);
  return { title, hasTitle: title === '' ? 'no' : 'yes' };
}

const viewLabel: MessageDescriptor = { id: 'outbox.view.goal', defaultMessage: 'Open the goal' };

function goalHref(row: OutboxRow): string | null {
  const goal = goalOf(row);
  return goal === null ? null : paths.company.goal(encodeURIComponent(goal.companyId), encodeURIComponent(goal.entityId));
}

/** The goal form, filled from the device's copy (`?edit=<goal id>`), which revises a refused row under a new key. */
function editFormHref(row: OutboxRow): string | null {
  const goal = goalOf(row);
  return goal === null ? null : `${paths.company.goalsCreate(encodeURIComponent(goal.companyId))}?edit=${encodeURIComponent(goal.entityId)}`;
}

const createLabel: MessageDescriptor = { id: 'outbox.kind.goalCreate', defaultMessage: 'Goal{hasTitle, select, yes { “{title}”} other {}}' };

export const goalCreateOutboxKind = {
  kind: GOAL_CREATE_KIND,
  label: createLabel,
  labelValues: (row: OutboxRow): Record<string, string> => titleValues(row.body),
  editHref: editFormHref,
  viewHref: goalHref,
  viewLabel,
  loadSuccessHandler: loadStoreSentGoal,
  /** POST /companies/{companyId}/goals is a pushable operation of the server. */
  pushable: true,
};

const editLabel: MessageDescriptor = { id: 'outbox.kind.goalEdit', defaultMessage: 'Changes to the goal{hasTitle, select, yes { “{title}”} other {}}' };

export const goalEditOutboxKind = {
  kind: GOAL_EDIT_KIND,
  label: editLabel,
  labelValues: (row: OutboxRow): Record<string, string> => titleValues(row.body),
  editHref: editFormHref,
  viewHref: goalHref,
  viewLabel,
  loadSuccessHandler: loadStoreSentGoal,
  pushable: true,
};

const actionLabel: MessageDescriptor = {
  id: 'outbox.kind.goalAction',
  defaultMessage:
    'Goal{hasTitle, select, yes { “{title}”} other {}}: {action, select, TO_WORK {take to work} CLARIFICATION {ask for clarification} APPROVE {approve} RESEND {send back to the business customer} other {change}}{hasComment, select, yes { — {comment}} other {}}',
};

/** An action: refused with 409 when the goal moved meanwhile; nothing to edit (discard it and act anew). */
export const goalActionOutboxKind = {
  kind: GOAL_ACTION_KIND,
  label: actionLabel,
  labelValues: (row: OutboxRow, entity?: unknown): Record<string, string> => {
    const comment = labelTextOf(stringFieldOf(row.body, 'comment'));
    return { ...titleValues(entity), action: stringFieldOf(row.body, 'action'), comment, hasComment: comment === '' ? 'no' : 'yes' };
  },
  editHref: (): string | null => null,
  viewHref: goalHref,
  viewLabel,
  loadSuccessHandler: loadStoreSentGoal,
  pushable: true,
};

/** Each entry is an `OutboxKind` of src/app/outbox-kinds.ts (a feature does not import the shell: structural). */
export const goalOutboxKinds = [goalCreateOutboxKind, goalEditOutboxKind, goalActionOutboxKind] as const;
