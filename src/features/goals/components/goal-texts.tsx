// The words of a goal's states and actions, shared by the goal screens.
import { FormattedMessage, defineMessages } from 'react-intl';
import type { GoalAction, GoalHistoryAction, GoalStatus } from '../../../domain/goal';
import type { OutboxStatus } from '../../../lib/db/database';

export const GOAL_STATUS_MESSAGES = defineMessages({
  NEW: { id: 'goals.status.new', defaultMessage: 'New' },
  TO_WORK: { id: 'goals.status.toWork', defaultMessage: 'Taken to work' },
  CLARIFICATION: { id: 'goals.status.clarification', defaultMessage: 'Clarification asked' },
  APPROVED: { id: 'goals.status.approved', defaultMessage: 'Approved' },
}) satisfies Record<GoalStatus, unknown>;

/** The buttons of the actions. */
export const GOAL_ACTION_MESSAGES = defineMessages({
  TO_WORK: { id: 'goals.action.toWork', defaultMessage: 'Take to work' },
  CLARIFICATION: { id: 'goals.action.clarification', defaultMessage: 'Ask for clarification' },
  APPROVE: { id: 'goals.action.approve', defaultMessage: 'Approve' },
  RESEND: { id: 'goals.action.resend', defaultMessage: 'Send back to the business customer' },
}) satisfies Record<GoalAction, unknown>;

/** What the action-result page says happened. */
export const GOAL_ACTION_RESULT_MESSAGES = defineMessages({
  TO_WORK: { id: 'goals.actionResult.toWork', defaultMessage: 'Taken to work' },
  CLARIFICATION: { id: 'goals.actionResult.clarification', defaultMessage: 'Sent for clarification' },
  APPROVE: { id: 'goals.actionResult.approve', defaultMessage: 'Approved' },
  RESEND: { id: 'goals.actionResult.resend', defaultMessage: 'Sent back to the business customer' },
}) satisfies Record<GoalAction, unknown>;

/** The audit trail's entries. */
export const GOAL_HISTORY_MESSAGES = defineMessages({
  CREATED: { id: 'goals.history.created', defaultMessage: 'Set the goal' },
  EDITED: { id: 'goals.history.edited', defaultMessage: 'Edited the goal' },
  TO_WORK: { id: 'goals.history.toWork', defaultMessage: 'Took it to work' },
  CLARIFICATION: { id: 'goals.history.clarification', defaultMessage: 'Asked for clarification' },
  APPROVE: { id: 'goals.history.approve', defaultMessage: 'Approved it' },
  RESEND: { id: 'goals.history.resend', defaultMessage: 'Sent it back to the business customer' },
}) satisfies Record<GoalHistoryAction, unknown>;

export function GoalStatusText({ status }: { status: GoalStatus }) {
  return (
    <span className={`goal-status goal-status--${status.toLowerCase()}`} data-goal-status={status}>
      <FormattedMessage {...GOAL_STATUS_MESSAGES[status]} />
    </span>
  );
}

/** The visible "waiting to send" mark of a goal with unsent changes (or that the server refused them). */
export function GoalUnsentMark({ state }: { state: OutboxStatus }) {
  const isStuck = state === 'conflict' || state === 'failed';
  return (
    <span className={`goal-unsent${isStuck ? ' goal-unsent--stuck' : ''}`} data-unsent={state}>
      {isStuck ? (
        <FormattedMessage id="goals.unsent.stuck" defaultMessage="Not sent: see Unsent" />
      ) : (
        <FormattedMessage id="goals.unsent.waiting" defaultMessage="Waiting to send" />
      )}
    </span>
  );
}
