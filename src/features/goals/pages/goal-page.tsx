// One goal, read from the device's mirror only (works offline): every field, its status and business customer,
// the audit trail, its proposals and projects, the progress of its indicator from the projects' reports, and
// the actions the goal's rules allow the viewer (to work, for clarification with a comment, approve, the
// owner's resend and edit). Each action is stored on the device and sent by the outbox, then the
// action-result page says what happened.
import { useState, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { object, refine, size } from 'superstruct';
import { Link, useLocation, useParams } from 'wouter';
import { GOAL_COMMENT_MAX, availableGoalActions, canEditGoal, type Goal, type GoalAction } from '../../../domain/goal';
import { paths } from '../../../domain/paths';
import { goalIndicatorProgress } from '../../../domain/project';
import { multilineText } from '../../../domain/validation';
import { Button, buttonClassName } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { useForm } from '../../../ui/form';
import { PageSpinner } from '../../../ui/spinner';
import { Textarea } from '../../../ui/textarea';
import { GOAL_ACTION_MESSAGES, GOAL_HISTORY_MESSAGES, GOAL_STATUS_MESSAGES, GoalStatusText, GoalUnsentMark } from '../components/goal-texts';
import { useMemberRoles } from '../../../lib/member-view';
import { useGoal, useGoalActions, useUnitTitles, type GoalActions, type GoalView } from '../hooks';
import { employeeNameOf, goalTitleOf } from '../list';
import '../goals.css';

function dateOf(day: string) {
  return <FormattedDate value={`${day}T00:00:00`} dateStyle="medium" />;
}

export default function GoalPage() {
  const { companyId = '', goalId = '' } = useParams<{ companyId: string; goalId: string }>();
  const view = useGoal(companyId, goalId);
  const units = useUnitTitles();
  if (view === undefined || units === undefined) return <PageSpinner />;
  const back = (
    <p className="goals-page__back">
      <Link href={paths.company.goals(companyId)}>
        <FormattedMessage id="goals.backToList" defaultMessage="Back to the goals" />
      </Link>
    </p>
  );
  if (view === null) {
    return (
      <section className="goals-page">
        {back}
        <h1 className="goals-page__title">
          <FormattedMessage id="goals.view.missing" defaultMessage="This goal is not on this device" />
        </h1>
        <p>
          <FormattedMessage id="goals.view.missingText" defaultMessage="It may not have been loaded yet: connect to the network and open it again." />
        </p>
      </section>
    );
  }
  return <GoalDetails companyId={companyId} view={view} units={units} back={back} />;
}

function GoalDetails({ companyId, view, units, back }: { companyId: string; view: GoalView; units: Map<string, string>; back: ReactNode }) {
  const intl = useIntl();
  const member = useMemberRoles(companyId);
  const actions = useGoalActions(companyId);
  const { goal, unsent, customer } = view;
  const unit = units.get(goal.indicator.unitId) ?? goal.indicator.unitId;
  const offered = availableGoalActions(goal, member);
  const mayEdit = canEditGoal(member.roles, goal);
  const progress = goalIndicatorProgress(goal, view.projects);
  const lowerUnit = unit.toLocaleLowerCase(intl.locale);

  return (
    <article className="goals-page" aria-labelledby="goal-title" data-status={goal.status} data-unsent={unsent ?? undefined}>
      {back}
      <h1 className="goals-page__title" id="goal-title">
        {goalTitleOf(goal)}
      </h1>
      <p className="goal-state">
        <GoalStatusText status={goal.status} />
        {unsent && <GoalUnsentMark state={unsent} />}
      </p>

      {(offered.length > 0 || mayEdit) && <GoalActionsPanel companyId={companyId} goal={goal} offered={offered} mayEdit={mayEdit} actions={actions} />}

      <dl className="goal-view">
        <dt>
          <FormattedMessage id="goals.form.businessCustomer" defaultMessage="Business customer" />
        </dt>
        <dd data-field="businessCustomer">{customer ? employeeNameOf(customer) : <FormattedMessage id="goals.unknownEmployee" defaultMessage="Not on this device yet" />}</dd>
        <dt>
          <FormattedMessage id="goals.view.dates" defaultMessage="Dates" />
        </dt>
        <dd>
          <FormattedMessage id="goals.list.dates" defaultMessage="{start} – {end}" values={{ start: dateOf(goal.startDate), end: dateOf(goal.endDate) }} />
        </dd>
        <dt>
          <FormattedMessage id="goals.form.indicatorValue" defaultMessage="Quantitative indicator" />
        </dt>
        <dd data-field="indicator">
          <FormattedMessage
            id="goals.view.indicator"
            defaultMessage="{unitId, select, MINUTES {{value, plural, one {# minute} other {# minutes}}} HOURS {{value, plural, one {# hour} other {# hours}}} DAYS {{value, plural, one {# day} other {# days}}} other {{value, number} {unit}}}"
            values={{ value: goal.indicator.value, unitId: goal.indicator.unitId, unit: lowerUnit }}
          />
        </dd>
        <dt>
          <FormattedMessage id="goals.form.description" defaultMessage="Description" />
        </dt>
        <dd className="goal-view__text">{goal.description}</dd>
        <dt>
          <FormattedMessage id="goals.form.expectedResult" defaultMessage="Expected result" />
        </dt>
        <dd className="goal-view__text">{goal.expectedResult}</dd>
        <dt>
          <FormattedMessage id="goals.form.ownerGoal" defaultMessage="Owner’s goal" />
        </dt>
        <dd className="goal-view__text">{goal.ownerGoal}</dd>
        <dt>
          <FormattedMessage id="goals.form.process" defaultMessage="Process to improve" />
        </dt>
        <dd>{goal.process}</dd>
      </dl>

      <h2 className="goals-page__subtitle">
        <FormattedMessage id="goals.view.progress" defaultMessage="Progress of the indicator" />
      </h2>
      <p data-progress={progress.achieved}>
        {progress.reportingProjects === 0 ? (
          <FormattedMessage id="goals.view.noProgress" defaultMessage="No project of this goal has reported its indicator yet." />
        ) : (
          <FormattedMessage
            id="goals.view.progressLine"
            defaultMessage="{achieved, number} of {unitId, select, MINUTES {{target, plural, one {# minute} other {# minutes}}} HOURS {{target, plural, one {# hour} other {# hours}}} DAYS {{target, plural, one {# day} other {# days}}} other {{target, number} {unit}}}{hasShare, select, yes {, {share, number, percent}} other {}}"
            values={{
              achieved: Math.round(progress.achieved * 100) / 100,
              target: goal.indicator.value,
              unitId: goal.indicator.unitId,
              unit: lowerUnit,
              hasShare: progress.share === null ? 'no' : 'yes',
              share: progress.share ?? 0,
            }}
          />
        )}
      </p>

      <h2 className="goals-page__subtitle">
        <FormattedMessage id="goals.view.projects" defaultMessage="Projects" />
      </h2>
      {view.projects.length === 0 ? (
        <p className="goals-page__empty">
          <FormattedMessage id="goals.view.noProjects" defaultMessage="No projects serve this goal yet." />
        </p>
      ) : (
        <ul className="goal-links">
          {view.projects.map((project) => (
            <li key={project.id}>
              <Link href={paths.company.project(companyId, project.id)}>{project.name}</Link>
            </li>
          ))}
        </ul>
      )}

      <h2 className="goals-page__subtitle">
        <FormattedMessage id="goals.view.suggestions" defaultMessage="Proposals" />
      </h2>
      {view.suggestions.length === 0 ? (
        <p className="goals-page__empty">
          <FormattedMessage id="goals.view.noSuggestions" defaultMessage="No proposals were made for this goal yet." />
        </p>
      ) : (
        <ul className="goal-links">
          {view.suggestions.map((suggestion) => (
            <li key={suggestion.id}>
              <Link href={paths.company.suggestion(companyId, suggestion.id)}>{suggestion.title}</Link>
              <span className="goal-links__meta">
                                <FormattedDate value={suggestion.submittedAt} dateStyle="medium" />
              </span>
            </li>
          ))}
        </ul>
      )}

      <h2 className="goals-page__subtitle">
        <FormattedMessage id="goals.view.history" defaultMessage="History" />
      </h2>
      <ol className="goal-history">
        {goal.history.map((entry, index) => (
          <li key={`${entry.at}-${index}`} className="goal-history__entry" data-history={entry.action}>
            <span className="goal-history__what">
              <FormattedMessage {...GOAL_HISTORY_MESSAGES[entry.action]} />
              {entry.fromStatus !== null && entry.fromStatus !== entry.toStatus && (
                <span className="goal-history__move">
                  <FormattedMessage
                    id="goals.history.move"
                    defaultMessage="({from} → {to})"
                    values={{ from: intl.formatMessage(GOAL_STATUS_MESSAGES[entry.fromStatus]), to: intl.formatMessage(GOAL_STATUS_MESSAGES[entry.toStatus]) }}
                  />
                </span>
              )}
            </span>
            <span className="goal-history__who">
              <FormattedMessage
                id="goals.history.by"
                defaultMessage="{who}, {when}"
                values={{ who: entry.byName ?? '—', when: <FormattedDate value={entry.at} dateStyle="medium" timeStyle="short" /> }}
              />
            </span>
            {entry.comment && <span className="goal-history__comment">{entry.comment}</span>}
          </li>
        ))}
      </ol>
    </article>
  );
}

/** The question for the owner: required, the server's limit. */
const CommentStruct = object({
  comment: size(
    refine(multilineText(), 'required', (value) => value.trim().length > 0),
    0,
    GOAL_COMMENT_MAX,
  ),
});

function ClarificationForm({ onSubmit, onCancel }: { onSubmit: (comment: string) => Promise<void>; onCancel: () => void }) {
  const intl = useIntl();
  const form = useForm({
    struct: CommentStruct,
    messages: { required: { id: 'goals.action.commentRequired', defaultMessage: 'Write what needs clarifying: the owner will read it.' } },
  });
  return (
    <form className="goal-actions__form" noValidate onSubmit={form.handleSubmit((value) => onSubmit(value.comment.trim()))}>
      <Textarea
        {...form.textField('comment', intl.formatMessage({ id: 'goals.action.comment', defaultMessage: 'What needs clarifying' }))}
        maxLength={GOAL_COMMENT_MAX}
        autoHeight
      />
      <div className="goals-page__actions">
        <Button type="submit" loading={form.isSubmitting} data-action="goal-clarification-submit">
          <FormattedMessage id="goals.action.clarificationSubmit" defaultMessage="Send for clarification" />
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={form.isSubmitting}>
          <FormattedMessage id="goals.action.cancel" defaultMessage="Cancel" />
        </Button>
      </div>
    </form>
  );
}

const CONFIRM_MESSAGES = {
  TO_WORK: { id: 'goals.action.toWorkConfirm', defaultMessage: 'Take “{title}” to work? The owner will be told and will approve it.' },
  APPROVE: { id: 'goals.action.approveConfirm', defaultMessage: 'Approve “{title}”? This cannot be undone.' },
  RESEND: { id: 'goals.action.resendConfirm', defaultMessage: 'Send “{title}” back to the business customer?' },
} as const;

interface GoalActionsPanelProps {
  companyId: string;
  goal: Goal;
  offered: readonly GoalAction[];
  mayEdit: boolean;
  actions: GoalActions;
}

function GoalActionsPanel({ companyId, goal, offered, mayEdit, actions }: GoalActionsPanelProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const [, navigate] = useLocation();
  const [isAsking, setAsking] = useState(false);
  const [busy, setBusy] = useState<GoalAction | null>(null);
  const title = goalTitleOf(goal);
  const resultOf = (action: GoalAction) => `${paths.company.goalActionResult(companyId, goal.id)}?action=${action}`;

  const confirmAndAct = async (action: 'TO_WORK' | 'APPROVE' | 'RESEND') => {
    const isSure = await dialog.confirm({
      title: intl.formatMessage(GOAL_ACTION_MESSAGES[action]),
      content: intl.formatMessage(CONFIRM_MESSAGES[action], { title }),
      confirmText: intl.formatMessage(GOAL_ACTION_MESSAGES[action]),
      closeText: intl.formatMessage({ id: 'goals.action.cancel', defaultMessage: 'Cancel' }),
    });
    if (!isSure) return;
    setBusy(action);
    try {
      await actions.act(goal.id, { action });
      navigate(resultOf(action));
    } catch (error) {
      await dialog.error(error instanceof Error && error.message !== '' ? { content: error.message } : {});
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="goal-actions" aria-labelledby="goal-actions-title">
      <h2 className="goals-page__subtitle" id="goal-actions-title">
        <FormattedMessage id="goals.action.title" defaultMessage="What you can do" />
      </h2>
      <div className="goals-page__actions">
        {offered.map((action) =>
          action === 'CLARIFICATION' ? (
            <Button key={action} variant="secondary" onClick={() => setAsking(true)} disabled={isAsking || busy !== null} data-action={`goal-${action}`}>
              <FormattedMessage {...GOAL_ACTION_MESSAGES[action]} />
            </Button>
          ) : (
            <Button key={action} onClick={() => void confirmAndAct(action)} loading={busy === action} disabled={isAsking || busy !== null} data-action={`goal-${action}`}>
              <FormattedMessage {...GOAL_ACTION_MESSAGES[action]} />
            </Button>
          ),
        )}
        {mayEdit && (
          <Link href={`${paths.company.goalsCreate(companyId)}?edit=${encodeURIComponent(goal.id)}`} className={buttonClassName('secondary')} data-action="goal-edit">
            <FormattedMessage id="goals.action.edit" defaultMessage="Edit" />
          </Link>
        )}
      </div>
      {isAsking && (
        <ClarificationForm
          onCancel={() => setAsking(false)}
          onSubmit={async (comment) => {
            await actions.act(goal.id, { action: 'CLARIFICATION', comment });
            navigate(resultOf('CLARIFICATION'));
          }}
        />
      )}
    </section>
  );
}
