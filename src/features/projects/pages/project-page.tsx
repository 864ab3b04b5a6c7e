import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useParams } from 'wouter';
import { basisPointsToPercentText } from '../../../domain/money';
import { paths } from '../../../domain/paths';
import type { EmployeeRow } from '../../../domain/suggestion';
import { useAppConfig } from '../../../lib/app-state';
import { useMemberView } from '../../../lib/member-view';
import { PageSpinner } from '../../../ui/spinner';
import { ProjectDecisions } from '../components/project-detail-decisions';
import { useProjectActions, useProjectSurroundings, useProjectView } from '../components/project-detail-hooks';
import { separatorOf } from '../components/project-detail-format';
import { CalendarDateText, FrequencyText, MoneyText, ProjectPhoto, ProjectStatusText, ProjectUnsentMark } from '../components/project-detail-parts';
import { ProjectPayments } from '../components/project-detail-payments';
import { IndicatorReportPart, showsIndicatorReportForm } from '../components/indicator-report-part';
import { IndicatorReports, NextReportDue, ProjectHistory } from '../components/project-detail-reports';
import '../project.css';

function fullNameOf(employee: Pick<EmployeeRow, 'lastName' | 'firstName' | 'middleName'>): string {
  return [employee.lastName, employee.firstName, employee.middleName].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');
}

function Row({ label, children, name }: { label: ReactNode; children: ReactNode; name?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd data-field={name}>{children}</dd>
    </>
  );
}

const notSet = <FormattedMessage id="projects.detail.notSet" defaultMessage="Not set" />;

/**
 * One project, read from the device's mirror only (works offline): every field of spec section 3, its status and
 * the decisions the user may make now (availableProjectTransitions), the remuneration and its split among the
 * team (edited by the lead while CALCULATED or APPROVED), the indicator reports with the next due date, and the
 * audit trail.
 */
export default function ProjectPage() {
  const { companyId = '', projectId = '' } = useParams<{ companyId: string; projectId: string }>();
  const intl = useIntl();
  const { units } = useAppConfig();
  const view = useProjectView(companyId, projectId);
  const surroundings = useProjectSurroundings(companyId, view?.project);
  const member = useMemberView(companyId);
  const actions = useProjectActions(companyId);

  const back = (
    <p className="project-detail__back">
      <Link href={paths.company.projects(companyId)}>
        <FormattedMessage id="projects.view.back" defaultMessage="Back to the projects" />
      </Link>
    </p>
  );
  if (view === null) {
    return (
      <section className="project-detail">
        {back}
        <h1 className="project-detail__title">
          <FormattedMessage id="projects.view.missing" defaultMessage="This project is not on this device" />
        </h1>
        <p>
          <FormattedMessage id="projects.view.missingText" defaultMessage="It may not have been loaded yet: connect to the network and open it again." />
        </p>
      </section>
    );
  }
  if (view === undefined || surroundings === undefined || member === undefined) return <PageSpinner />;

  const { project, unsent } = view;
  const { employees, goals, departments } = surroundings;
  const unitName = (unitId: string) => units.find((unit) => unit.id === unitId)?.title ?? unitId;
  const metric = (value: { value: number; unitId: string } | null) =>
    value === null ? (
      notSet
    ) : (
      <FormattedMessage id="projects.detail.metric" defaultMessage="{value, number} {unit}" values={{ value: value.value, unit: unitName(value.unitId) }} />
    );
  const money = (amount: number | null) => (amount === null ? notSet : <MoneyText amountMinor={amount} currency={project.currency} />);
  const manager = employees.get(project.projectManagerEmployeeId);
  const managerName = manager ? fullNameOf(manager) : (project.team.find((member) => member.employeeId === project.projectManagerEmployeeId)?.name ?? null);
  const customer = project.businessCustomerEmployeeId === null ? null : employees.get(project.businessCustomerEmployeeId);
  const department = project.departmentId === null ? null : departments.find((item) => item.id === project.departmentId);
  const percent = `${basisPointsToPercentText(project.profitBasisPoints, separatorOf(intl))} %`;
  const targetUnit = project.targetMetric ? unitName(project.targetMetric.unitId) : null;

  return (
    <article className="project-detail" aria-labelledby="project-title" data-status={project.status} data-unsent={unsent ?? undefined}>
      {back}
      <h1 className="project-detail__title" id="project-title">
        {project.name}
      </h1>
      <p className="project-detail__status">
        <span className={`project-status project-status--${project.status.toLowerCase()}`} data-status={project.status}>
          <ProjectStatusText status={project.status} />
        </span>
        {unsent && <ProjectUnsentMark state={unsent} />}
      </p>
      <NextReportDue project={project} />

      <ProjectDecisions companyId={companyId} project={project} member={member} actions={actions} />

      <dl className="project-view">
        <Row label={<FormattedMessage id="projects.detail.problem" defaultMessage="Problem" />} name="problem">
          {project.problem}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.type" defaultMessage="Type" />} name="type">
          <FormattedMessage
            id="projects.detail.typeName"
            defaultMessage="{type, select, ORGANIZATIONAL {Organizational} TECHNICAL {Technical} INVESTMENT {Investment} other {—}}"
            values={{ type: project.type }}
          />
        </Row>
        <Row label={<FormattedMessage id="projects.detail.author" defaultMessage="Author" />} name="author">
          {project.authorName}
        </Row>
        {project.suggestionId !== null && (
          <Row label={<FormattedMessage id="projects.detail.fromSuggestion" defaultMessage="Made from the proposal" />} name="suggestion">
            <Link href={paths.company.suggestion(companyId, project.suggestionId)}>
              <FormattedMessage id="projects.detail.openSuggestion" defaultMessage="Open the proposal" />
            </Link>
          </Row>
        )}
        {department && (
          <Row label={<FormattedMessage id="projects.detail.department" defaultMessage="Department" />} name="department">
            {department.name}
          </Row>
        )}
        <Row label={<FormattedMessage id="projects.detail.customer" defaultMessage="Business customer" />} name="customer">
          {customer ? fullNameOf(customer) : project.businessCustomerEmployeeId === null ? notSet : <FormattedMessage id="projects.detail.unknownPerson" defaultMessage="Not on this device yet" />}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.goals" defaultMessage="Goals" />} name="goals">
          {project.goalIds.length === 0 ? (
            notSet
          ) : (
            <ul className="project-view__list">
              {project.goalIds.map((goalId) => (
                <li key={goalId}>
                  <Link href={paths.company.goal(companyId, goalId)}>
                    {goals.get(goalId)?.direction ?? <FormattedMessage id="projects.detail.goalUnknown" defaultMessage="A goal not on this device yet" />}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.baseline" defaultMessage="Baseline metric" />} name="baseline">
          {metric(project.baselineMetric)}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.target" defaultMessage="Target metric" />} name="target">
          {metric(project.targetMetric)}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.completionDate" defaultMessage="Completion date" />} name="completionDate">
          <CalendarDateText date={project.completionDate} />
        </Row>
        <Row label={<FormattedMessage id="projects.detail.actualCompletionDate" defaultMessage="Actual completion date" />} name="actualCompletionDate">
          {project.actualCompletionDate === null ? notSet : <CalendarDateText date={project.actualCompletionDate} />}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.reportingFrequency" defaultMessage="Reporting frequency" />} name="reportingFrequency">
          <FrequencyText frequency={project.reportingFrequency} />
        </Row>
        <Row label={<FormattedMessage id="projects.detail.postMonitoring" defaultMessage="Post-monitoring periodicity" />} name="postMonitoring">
          <FrequencyText frequency={project.postMonitoringPeriodicity} />
        </Row>
        <Row label={<FormattedMessage id="projects.detail.manager" defaultMessage="Project manager" />} name="manager">
          {managerName ?? <FormattedMessage id="projects.detail.unknownPerson" defaultMessage="Not on this device yet" />}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.team" defaultMessage="Team" />} name="team">
          {project.team.length === 0 ? (
            notSet
          ) : (
            <ul className="project-view__list">
              {project.team.map((teamMember) => (
                <li key={teamMember.employeeId}>
                  <FormattedMessage
                    id="projects.detail.teamMember"
                    defaultMessage="{name}{hasNumber, select, yes { (No. {number})} other {}}: {role}"
                    values={{ name: teamMember.name, number: teamMember.serviceNumber ?? '', hasNumber: teamMember.serviceNumber ? 'yes' : 'no', role: teamMember.role }}
                  />
                </li>
              ))}
            </ul>
          )}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.profit" defaultMessage="Profit percentage" />} name="profit">
          {percent}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.maxPerProject" defaultMessage="Maximum per project" />} name="maxPerProject">
          {project.maxPerProjectMinor === null ? <FormattedMessage id="projects.detail.noMaximum" defaultMessage="No maximum" /> : money(project.maxPerProjectMinor)}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.estimatedCosts" defaultMessage="Estimated costs" />} name="estimatedCosts">
          {money(project.estimatedCostsMinor)}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.expectedEffect" defaultMessage="Expected economic effect over 12 months" />} name="expectedEffect">
          {money(project.expectedEffect12mMinor)}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.actualEffect" defaultMessage="Actual economic effect over 12 months" />} name="actualEffect">
          {money(project.actualEffect12mMinor)}
        </Row>
        <Row label={<FormattedMessage id="projects.detail.repeatability" defaultMessage="Effect repeatability" />} name="repeatability">
          <FormattedMessage
            id="projects.detail.repeatabilityName"
            defaultMessage="{value, select, ONE_TIME {One-time} RECURRING {Recurring} other {—}}"
            values={{ value: project.effectRepeatability }}
          />
        </Row>
      </dl>

      {project.images.length > 0 && (
        <section aria-labelledby="project-photos-title">
          <h2 className="project-detail__subtitle" id="project-photos-title">
            <FormattedMessage id="projects.detail.photos" defaultMessage="Photos" />
          </h2>
          <div className="project-photos">
            {project.images.map((image) => (
              <ProjectPhoto key={image.imageId} imageLink={image.imageLink} name={image.name} />
            ))}
          </div>
        </section>
      )}

      <section aria-labelledby="project-remuneration-title" className="project-remuneration">
        <h2 className="project-detail__subtitle" id="project-remuneration-title">
          <FormattedMessage id="projects.detail.remuneration" defaultMessage="Remuneration" />
        </h2>
        {project.remunerationMinor === null ? (
          <p className="project-detail__muted" data-remuneration="unknown">
            <FormattedMessage id="projects.detail.remunerationUnknown" defaultMessage="Known once finance has calculated the expected effect." />
          </p>
        ) : (
          <p className="project-remuneration__amount" data-remuneration={project.remunerationMinor}>
            <strong>
              <MoneyText amountMinor={project.remunerationMinor} currency={project.currency} />
            </strong>
            <span className="project-detail__muted">
              {project.maxPerProjectMinor === null ? (
                <FormattedMessage id="projects.detail.remunerationRule" defaultMessage="({percent} of the expected effect)" values={{ percent }} />
              ) : (
                <FormattedMessage
                  id="projects.detail.remunerationRuleCapped"
                  defaultMessage="({percent} of the expected effect, at most {maximum})"
                  values={{ percent, maximum: <MoneyText amountMinor={project.maxPerProjectMinor} currency={project.currency} /> }}
                />
              )}
            </span>
          </p>
        )}
        <ProjectPayments project={project} member={member} actions={actions} managerName={managerName} />
      </section>

      <section aria-labelledby="project-reports-title">
        <h2 className="project-detail__subtitle" id="project-reports-title">
          <FormattedMessage id="projects.detail.reports" defaultMessage="Indicator reports" />
        </h2>
        <IndicatorReports project={project} unitName={targetUnit} />
        {showsIndicatorReportForm(project, member) && (
          <IndicatorReportPart companyId={companyId} project={project} member={member} actions={actions} unitName={targetUnit} />
        )}
      </section>

      <section aria-labelledby="project-history-title">
        <h2 className="project-detail__subtitle" id="project-history-title">
          <FormattedMessage id="projects.detail.history" defaultMessage="History" />
        </h2>
        <ProjectHistory project={project} />
      </section>
    </article>
  );
}
