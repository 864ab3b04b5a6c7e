// Setting a goal (`/goals/create`) and the owner's edit of one (`?edit=<goal id>`, while NEW or CLARIFICATION,
// the states in which its text may change). The goal is stored on the device with its outbox row, so
// this works offline; then the create-result page (or, after an edit, the goal) says where it stands.
import { FormattedMessage } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { canCreateGoal, canEditGoal, type GoalInput } from '../../../domain/goal';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { GoalForm } from '../components/goal-form';
import { useMemberRoles } from '../../../lib/member-view';
import { useGoal, useGoalActions, useGoalFormData, type GoalView } from '../hooks';
import '../goals.css';

function inputOf(view: GoalView): GoalInput {
  const { goal } = view;
  return {
    direction: goal.direction,
    scope: goal.scope,
    description: goal.description,
    expectedResult: goal.expectedResult,
    indicator: goal.indicator,
    ownerGoal: goal.ownerGoal,
    startDate: goal.startDate,
    endDate: goal.endDate,
    businessCustomerEmployeeId: goal.businessCustomerEmployeeId,
    process: goal.process,
  };
}

export default function GoalCreatePage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const editOf = new URLSearchParams(useSearch()).get('edit');
  return (
    <section className="goals-page" aria-labelledby="goal-create-title">
      <p className="goals-page__back">
        <Link href={editOf ? paths.company.goal(companyId, editOf) : paths.company.goals(companyId)}>
          {editOf ? (
            <FormattedMessage id="goals.backToGoal" defaultMessage="Back to the goal" />
          ) : (
            <FormattedMessage id="goals.backToList" defaultMessage="Back to the goals" />
          )}
        </Link>
      </p>
      <h1 className="goals-page__title" id="goal-create-title">
        {editOf ? <FormattedMessage id="goals.edit.title" defaultMessage="Edit the goal" /> : <FormattedMessage id="goals.create.title" defaultMessage="New goal" />}
      </h1>
      {editOf ? <EditGoal companyId={companyId} goalId={editOf} /> : <NewGoal companyId={companyId} />}
    </section>
  );
}

function NotAllowed() {
  return (
    <p role="status" data-refused="">
      <FormattedMessage id="goals.create.notAllowed" defaultMessage="Only the owner, the CEO or a top manager sets goals." />
    </p>
  );
}

function NewGoal({ companyId }: { companyId: string }) {
  const [, navigate] = useLocation();
  const member = useMemberRoles(companyId);
  const data = useGoalFormData(companyId);
  const actions = useGoalActions(companyId);
  if (!canCreateGoal(member.roles)) return <NotAllowed />;
  if (data === undefined) return <PageSpinner />;
  return (
    <GoalForm
      data={data}
      onSubmit={async (input) => {
        const id = await actions.create(input);
        navigate(`${paths.company.goalsCreateResult(companyId)}?id=${encodeURIComponent(id)}`);
      }}
    />
  );
}

function EditGoal({ companyId, goalId }: { companyId: string; goalId: string }) {
  const [, navigate] = useLocation();
  const member = useMemberRoles(companyId);
  const view = useGoal(companyId, goalId);
  const data = useGoalFormData(companyId);
  const actions = useGoalActions(companyId);
  if (view === undefined || data === undefined) return <PageSpinner />;
  if (view === null || !canEditGoal(member.roles, view.goal)) {
    return (
      <p role="status" data-refused="">
        <FormattedMessage id="goals.edit.notAllowed" defaultMessage="This goal cannot be edited now: only the owner edits a goal, while it is new or waits for clarification." />
      </p>
    );
  }
  return (
    <GoalForm
      key={view.goal.id}
      data={data}
      initial={inputOf(view)}
      onSubmit={async (input) => {
        await actions.edit(goalId, input);
        navigate(paths.company.goal(companyId, goalId));
      }}
    />
  );
}
