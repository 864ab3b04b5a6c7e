// After setting a goal (`?id=<goal id>`): whether the server has it already or it waits to be sent (offline),
// with links to the goal and to the list. Reads the mirror and the outbox, so it updates when the goal is sent.
import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { GoalUnsentMark } from '../components/goal-texts';
import { useGoal } from '../hooks';
import { goalTitleOf } from '../list';
import '../goals.css';

export default function GoalCreateResultPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const goalId = new URLSearchParams(useSearch()).get('id') ?? '';
  const view = useGoal(companyId, goalId);
  if (view === undefined) return <PageSpinner />;
  return (
    <section className="goals-page" aria-labelledby="goal-created-title" data-unsent={view?.unsent ?? undefined}>
      <h1 className="goals-page__title" id="goal-created-title">
        <FormattedMessage id="goals.createResult.title" defaultMessage="Goal created" />
      </h1>
      {view === null ? (
        <p role="status">
          <FormattedMessage id="goals.createResult.missing" defaultMessage="This goal is not on this device." />
        </p>
      ) : (
        <>
          <p className="goal-result__subject">
            {goalTitleOf(view.goal)}
          </p>
          {view.unsent ? (
            <>
              <GoalUnsentMark state={view.unsent} />
              <p role="status" data-result="waiting">
                <FormattedMessage
                  id="goals.createResult.waiting"
                  defaultMessage="The goal is saved on this device and will be sent to the business customer as soon as there is a connection."
                />
              </p>
            </>
          ) : (
            <p role="status" data-result="sent">
              <FormattedMessage id="goals.createResult.sent" defaultMessage="The goal was set, and the business customer was told." />
            </p>
          )}
        </>
      )}
      <div className="goals-page__actions">
        {view !== null && (
          <Link href={paths.company.goal(companyId, goalId)} className={buttonClassName('primary')}>
            <FormattedMessage id="goals.open" defaultMessage="Open the goal" />
          </Link>
        )}
        <Link href={paths.company.goals(companyId)} className={buttonClassName('secondary')}>
          <FormattedMessage id="goals.backToList" defaultMessage="Back to the goals" />
        </Link>
      </div>
    </section>
  );
}
