// After an action on a goal (`?action=TO_WORK|CLARIFICATION|APPROVE|RESEND`): what was done, whether it waits
// to be sent (offline) and where the goal stands now. Reads the mirror and the outbox only.
import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { GOAL_ACTIONS } from '../../../domain/goal';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { GOAL_ACTION_RESULT_MESSAGES, GoalStatusText, GoalUnsentMark } from '../components/goal-texts';
import { useGoal } from '../hooks';
import { goalTitleOf } from '../list';
import '../goals.css';

export default function GoalActionResultPage() {
  const { companyId = '', goalId = '' } = useParams<{ companyId: string; goalId: string }>();
  const requested = new URLSearchParams(useSearch()).get('action');
  const action = GOAL_ACTIONS.find((known) => known === requested) ?? null;
  const view = useGoal(companyId, goalId);
  if (view === undefined) return <PageSpinner />;
  return (
    <section className="goals-page" aria-labelledby="goal-action-title" data-action={action ?? undefined} data-unsent={view?.unsent ?? undefined}>
      <h1 className="goals-page__title" id="goal-action-title">
        {action ? <FormattedMessage {...GOAL_ACTION_RESULT_MESSAGES[action]} /> : <FormattedMessage id="goals.actionResult.title" defaultMessage="Goal updated" />}
      </h1>
      {view !== null && (
        <>
          <p className="goal-result__subject">
            {goalTitleOf(view.goal)}
          </p>
          <p>
            <FormattedMessage id="goals.actionResult.status" defaultMessage="Status now:" /> <GoalStatusText status={view.goal.status} />
          </p>
          {view.unsent ? (
            <>
              <GoalUnsentMark state={view.unsent} />
              <p role="status" data-result="waiting">
                <FormattedMessage id="goals.actionResult.waiting" defaultMessage="Saved on this device: it will be sent as soon as there is a connection." />
              </p>
            </>
          ) : (
            <p role="status" data-result="sent">
              <FormattedMessage id="goals.actionResult.sent" defaultMessage="Done: the others involved were told." />
            </p>
          )}
        </>
      )}
      <div className="goals-page__actions">
        <Link href={paths.company.goal(companyId, goalId)} className={buttonClassName('primary')}>
          <FormattedMessage id="goals.backToGoal" defaultMessage="Back to the goal" />
        </Link>
        <Link href={paths.company.goals(companyId)} className={buttonClassName('secondary')}>
          <FormattedMessage id="goals.backToList" defaultMessage="Back to the goals" />
        </Link>
      </div>
    </section>
  );
}
