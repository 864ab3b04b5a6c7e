import { FormattedMessage, useIntl } from 'react-intl';
import { object, optional, size } from 'superstruct';
import { Link, useLocation, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { PROJECT_COMMENT_MAX, availableProjectTransitions, type Project } from '../../../domain/project';
import type { MemberView } from '../../../domain/permissions';
import { CalendarDate, multilineText } from '../../../domain/validation';
import { useMemberView } from '../../../lib/member-view';
import { Button } from '../../../ui/button';
import { DatePicker } from '../../../ui/date-picker/date-picker';
import { useForm } from '../../../ui/form';
import { PageSpinner } from '../../../ui/spinner';
import { TextField } from '../../../ui/text-field';
import { Textarea } from '../../../ui/textarea';
import { useProjectActions, useProjectSurroundings, useProjectView, type ProjectActions } from '../components/project-detail-hooks';
import { AMOUNT_MESSAGES, AmountText, minorOf } from '../components/project-detail-format';
import { localCalendarDate } from '../../../domain/report-schedule';
import '../project.css';

const CompleteStruct = object({
  actualCompletionDate: CalendarDate,
  actualEffect: AmountText,
  comment: optional(size(multilineText(), 0, PROJECT_COMMENT_MAX)),
});

function CompleteForm({ companyId, project, member, actions }: { companyId: string; project: Project; member: MemberView; actions: ProjectActions }) {
  const intl = useIntl();
  const [, navigate] = useLocation();
  const today = localCalendarDate(new Date());
  const form = useForm({ struct: CompleteStruct, initialValues: { actualCompletionDate: today }, messages: AMOUNT_MESSAGES });
  const date = form.selectField('actualCompletionDate', intl.formatMessage({ id: 'projects.complete.date', defaultMessage: 'Actual completion date' }));
  return (
    <form
      className="project-complete-form"
      noValidate
      data-form="complete"
      onSubmit={form.handleSubmit(async (value) => {
        const comment = value.comment?.trim() ?? '';
        await actions.complete(
          project.id,
          { actualCompletionDate: value.actualCompletionDate, actualEffect12mMinor: minorOf(value.actualEffect), comment: comment === '' ? null : comment },
          member,
        );
        navigate(paths.company.projectCompleteSuccess(companyId, project.id));
      })}
    >
      <DatePicker
        label={date.label}
        name={date.name}
        value={date.value === '' ? null : date.value}
        onChange={(picked) => date.onChange(picked ?? '')}
        onBlur={date.onBlur}
        error={date.error}
        required={date.required}
        maxDate={today}
        locale={intl.locale.startsWith('en') ? 'en' : 'ru'}
        autoApply
      />
      <TextField
        {...form.textField(
          'actualEffect',
          intl.formatMessage({ id: 'projects.complete.effect', defaultMessage: 'Actual economic effect over 12 months, {currency}' }, { currency: project.currency }),
        )}
        inputMode="decimal"
        autoComplete="off"
      />
      <Textarea
        {...form.textField('comment', intl.formatMessage({ id: 'projects.complete.comment', defaultMessage: 'Comment' }))}
        maxLength={PROJECT_COMMENT_MAX}
        autoHeight
      />
      <div className="project-detail__actions">
        <Button type="submit" loading={form.isSubmitting} data-action="complete-submit">
          <FormattedMessage id="projects.complete.submit" defaultMessage="Complete the project" />
        </Button>
        <Link href={paths.company.project(companyId, project.id)} className="project-detail__cancel">
          <FormattedMessage id="projects.decision.cancel" defaultMessage="Cancel" />
        </Link>
      </div>
    </form>
  );
}

/**
 * The project manager completes an approved project: the actual completion date (not in the future) and the
 * actual 12-month effect. Stored on the device and sent by the outbox (works offline), then complete-success.
 */
export default function ProjectCompletePage() {
  const { companyId = '', projectId = '' } = useParams<{ companyId: string; projectId: string }>();
  const view = useProjectView(companyId, projectId);
  const surroundings = useProjectSurroundings(companyId, view?.project);
  const member = useMemberView(companyId);
  const actions = useProjectActions(companyId);
  if (view === undefined || (view !== null && (surroundings === undefined || member === undefined))) return <PageSpinner />;

  const mayComplete = view !== null && member !== undefined && availableProjectTransitions(view.project, member).includes('COMPLETED');
  return (
    <section className="project-detail" aria-labelledby="project-complete-title">
      <p className="project-detail__back">
        <Link href={view === null ? paths.company.projects(companyId) : paths.company.project(companyId, projectId)}>
          <FormattedMessage id="projects.complete.back" defaultMessage="Back to the project" />
        </Link>
      </p>
      <h1 className="project-detail__title" id="project-complete-title">
        <FormattedMessage id="projects.complete.title" defaultMessage="Complete the project" />
      </h1>
      {view === null ? (
        <p>
          <FormattedMessage id="projects.view.missing" defaultMessage="This project is not on this device" />
        </p>
      ) : (
        <>
          <p className="project-detail__lead">{view.project.name}</p>
          {mayComplete && member ? (
            <CompleteForm companyId={companyId} project={view.project} member={member} actions={actions} />
          ) : (
            <p role="note" data-state="not-allowed">
              <FormattedMessage
                id="projects.complete.notAllowed"
                defaultMessage="Only the project manager completes a project, and only once it is approved."
              />
            </p>
          )}
        </>
      )}
    </section>
  );
}
