import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { object, refine, size } from 'superstruct';
import { Link, useLocation } from 'wouter';
import { paths } from '../../../domain/paths';
import type { MemberView } from '../../../domain/permissions';
import { PROJECT_COMMENT_MAX, availableProjectTransitions, type Project } from '../../../domain/project';
import { multilineText } from '../../../domain/validation';
import { Button, buttonClassName } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import { remunerationWith } from '../transition-store';
import type { ProjectActions } from './project-detail-hooks';
import { AMOUNT_MESSAGES, AmountText, minorOf } from './project-detail-format';
import { MoneyText } from './project-detail-parts';

const CalculationStruct = object({ estimatedCosts: AmountText, expectedEffect: AmountText });

/** Finance's calculation: the estimated costs and the expected 12-month effect, typed as amounts. */
function CalculationForm({ project, onSubmit, onCancel }: { project: Project; onSubmit: (costs: number, effect: number) => Promise<void>; onCancel: () => void }) {
  const intl = useIntl();
  const form = useForm({ struct: CalculationStruct, messages: AMOUNT_MESSAGES });
  const effectText = form.values.expectedEffect ?? '';
  const preview = useMemo(() => {
    if (effectText.trim() === '' || AmountText.validate(effectText)[0]) return null;
    return remunerationWith(project, minorOf(effectText));
  }, [effectText, project]);
  return (
    <form
      className="project-decisions__form"
      noValidate
      data-form="calculation"
      onSubmit={form.handleSubmit((value) => onSubmit(minorOf(value.estimatedCosts), minorOf(value.expectedEffect)))}
    >
      <TextField
        {...form.textField('estimatedCosts', intl.formatMessage({ id: 'projects.decision.estimatedCosts', defaultMessage: 'Estimated costs, {currency}' }, { currency: project.currency }))}
        inputMode="decimal"
        autoComplete="off"
      />
      <TextField
        {...form.textField(
          'expectedEffect',
          intl.formatMessage({ id: 'projects.decision.expectedEffect', defaultMessage: 'Expected economic effect over 12 months, {currency}' }, { currency: project.currency }),
        )}
        inputMode="decimal"
        autoComplete="off"
      />
      {preview !== null && (
        <p className="project-decisions__note" data-preview="remuneration">
          <FormattedMessage
            id="projects.decision.remunerationPreview"
            defaultMessage="The team's remuneration will be {amount}."
            values={{ amount: <MoneyText amountMinor={preview} currency={project.currency} /> }}
          />
        </p>
      )}
      <div className="project-detail__actions">
        <Button type="submit" loading={form.isSubmitting} data-action="calculate-submit">
          <FormattedMessage id="projects.decision.calculateSubmit" defaultMessage="Save the calculation" />
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={form.isSubmitting}>
          <FormattedMessage id="projects.decision.cancel" defaultMessage="Cancel" />
        </Button>
      </div>
    </form>
  );
}

const ReasonStruct = object({
  comment: size(
    refine(multilineText(), 'required', (value) => value.trim().length > 0),
    0,
    PROJECT_COMMENT_MAX,
  ),
});

/** The direction manager's reason for returning the project, required. */
function ReasonForm({ onSubmit, onCancel }: { onSubmit: (reason: string) => Promise<void>; onCancel: () => void }) {
  const intl = useIntl();
  const form = useForm({
    struct: ReasonStruct,
    messages: { required: { id: 'projects.decision.reasonRequired', defaultMessage: 'Give the reason: the project manager will read it.' } },
  });
  return (
    <form className="project-decisions__form" noValidate data-form="revision" onSubmit={form.handleSubmit((value) => onSubmit(value.comment.trim()))}>
      <Textarea
        {...form.textField('comment', intl.formatMessage({ id: 'projects.decision.reason', defaultMessage: 'Reason for returning it' }))}
        maxLength={PROJECT_COMMENT_MAX}
        autoHeight
      />
      <div className="project-detail__actions">
        <Button type="submit" variant="danger" loading={form.isSubmitting} data-action="revision-submit">
          <FormattedMessage id="projects.decision.returnSubmit" defaultMessage="Return for revision" />
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={form.isSubmitting}>
          <FormattedMessage id="projects.decision.cancel" defaultMessage="Cancel" />
        </Button>
      </div>
    </form>
  );
}

export interface ProjectDecisionsProps {
  companyId: string;
  project: Project;
  member: MemberView;
  actions: ProjectActions;
}

type Mode = 'calculation' | 'revision';

/**
 * The moves availableProjectTransitions offers the user now: send for calculation (the lead), calculated (finance,
 * with the amounts), approve or return for revision (the direction manager), complete (the project manager, on a
 * page of its own). Each is stored on the device and sent by the outbox, so it works offline. Nothing shows when
 * nothing is offered.
 */
export function ProjectDecisions({ companyId, project, member, actions }: ProjectDecisionsProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const [, navigate] = useLocation();
  const [mode, setMode] = useState<Mode | null>(null);
  const [busy, setBusy] = useState(false);
  const offered = useMemo(() => availableProjectTransitions(project, member), [project, member]);
  if (offered.length === 0) return null;

  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      await dialog.error(error instanceof Error && error.message !== '' ? { content: error.message } : {});
    } finally {
      setBusy(false);
    }
  };

  const sendForCalculation = () => run(() => actions.transition(project.id, { to: 'CALCULATING', comment: null }, member));

  const approve = async () => {
    const isSure = await dialog.confirm({
      title: intl.formatMessage({ id: 'projects.decision.approveTitle', defaultMessage: 'Approve this project?' }),
      content: intl.formatMessage(
        { id: 'projects.decision.approveText', defaultMessage: '“{name}” will be approved and enter the registry; its manager will be told.' },
        { name: project.name },
      ),
      confirmText: intl.formatMessage({ id: 'projects.decision.approve', defaultMessage: 'Approve' }),
      closeText: intl.formatMessage({ id: 'projects.decision.cancel', defaultMessage: 'Cancel' }),
    });
    if (!isSure) return;
    await run(async () => {
      await actions.transition(project.id, { to: 'APPROVED', comment: null }, member);
      navigate(paths.company.projectApproveResult(companyId, project.id));
    });
  };

  return (
    <section className="project-decisions" aria-labelledby="project-decisions-title">
      <h2 className="project-detail__subtitle" id="project-decisions-title">
        <FormattedMessage id="projects.decision.title" defaultMessage="Your decision" />
      </h2>
      <div className="project-detail__actions">
        {offered.includes('CALCULATING') && (
          <Button onClick={() => void sendForCalculation()} loading={busy} disabled={mode !== null} data-action="send-calculation">
            <FormattedMessage id="projects.decision.sendCalculation" defaultMessage="Send for calculation" />
          </Button>
        )}
        {offered.includes('CALCULATED') && (
          <Button onClick={() => setMode('calculation')} disabled={mode !== null || busy} data-action="calculate">
            <FormattedMessage id="projects.decision.calculate" defaultMessage="Calculated" />
          </Button>
        )}
        {offered.includes('APPROVED') && (
          <Button onClick={() => void approve()} loading={busy} disabled={mode !== null} data-action="approve">
            <FormattedMessage id="projects.decision.approve" defaultMessage="Approve" />
          </Button>
        )}
        {offered.includes('FOR_REVISION') && (
          <Button variant="danger" onClick={() => setMode('revision')} disabled={mode !== null || busy} data-action="return">
            <FormattedMessage id="projects.decision.return" defaultMessage="Return for revision" />
          </Button>
        )}
        {offered.includes('COMPLETED') && (
          <Link href={paths.company.projectComplete(companyId, project.id)} className={buttonClassName('primary')} data-action="complete">
            <FormattedMessage id="projects.decision.complete" defaultMessage="Complete" />
          </Link>
        )}
      </div>
      {mode === 'calculation' && (
        <CalculationForm
          project={project}
          onCancel={() => setMode(null)}
          onSubmit={async (estimatedCostsMinor, expectedEffect12mMinor) => {
            await actions.transition(project.id, { to: 'CALCULATED', comment: null, estimatedCostsMinor, expectedEffect12mMinor }, member);
            setMode(null);
          }}
        />
      )}
      {mode === 'revision' && (
        <ReasonForm
          onCancel={() => setMode(null)}
          onSubmit={async (comment) => {
            await actions.transition(project.id, { to: 'FOR_REVISION', comment }, member);
            navigate(paths.company.projectApproveResult(companyId, project.id));
          }}
        />
      )}
    </section>
  );
}
