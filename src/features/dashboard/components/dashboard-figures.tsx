// The dashboard's figures as cards: money per currency (effect expected and actual, costs, efficiency, EBITDA and
// its share, remuneration estimated and approved), proposals and the median time to a decision, goals by state
// with each goal's indicator progress, projects by state, staff involved, indicator reports. Everything here is
// read from one Dashboard (the server's answer, or the device's last one), so it renders offline and before
// chart.js arrives.
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { DASHBOARD_GOAL_STATUSES, DASHBOARD_PROJECT_STATUSES, type Dashboard, type DashboardMoney } from '../../../domain/dashboard';
import { paths } from '../../../domain/paths';
import { formatDecisionTime, formatMoney, formatRatio } from '../format';
import { FIGURE_MESSAGES, GOAL_STATUS_MESSAGES, PROJECT_STATUS_MESSAGES, SECTION_MESSAGES } from '../messages';

interface FigureProps {
  label: ReactNode;
  value: ReactNode;
  testId?: string;
  /** A line under the value (what it is made of). */
  note?: ReactNode;
}

/** The figure's test id names its value alone (no label digits such as "12 months" in its text). */
function Figure({ label, value, testId, note }: FigureProps) {
  return (
    <div className="figure">
      <dt className="figure__label">{label}</dt>
      <dd className="figure__value" data-testid={testId}>
        {value}
      </dd>
      {note !== undefined && <dd className="figure__note">{note}</dd>}
    </div>
  );
}

function NoValue() {
  return (
    <span className="figure__none">
      <FormattedMessage {...FIGURE_MESSAGES.notKnown} />
    </span>
  );
}

function MoneyFigures({ money, showCurrency }: { money: DashboardMoney; showCurrency: boolean }) {
  const intl = useIntl();
  const { currency } = money;
  const amount = (minor: number) => formatMoney(intl, minor, currency);
  const ratio = (basisPoints: number | null) => formatRatio(intl, basisPoints) ?? <NoValue />;
  return (
    <div className="figures-group" data-currency={currency}>
      {showCurrency && (
        <h3 className="figures-group__title">
          <FormattedMessage id="dashboard.figures.inCurrency" defaultMessage="In {currency}" values={{ currency }} />
        </h3>
      )}
      <dl className="figures">
        <Figure label={<FormattedMessage {...FIGURE_MESSAGES.expectedEffect} />} value={amount(money.expectedEffect12mMinor)} testId={`dashboard-expected-effect-${currency}`} />
        <Figure label={<FormattedMessage {...FIGURE_MESSAGES.actualEffect} />} value={amount(money.actualEffect12mMinor)} testId={`dashboard-actual-effect-${currency}`} />
        <Figure label={<FormattedMessage {...FIGURE_MESSAGES.costs} />} value={amount(money.costsMinor)} testId={`dashboard-costs-${currency}`} />
        <Figure label={<FormattedMessage {...FIGURE_MESSAGES.efficiency} />} value={ratio(money.efficiencyBasisPoints)} testId={`dashboard-efficiency-${currency}`} />
        <Figure
          label={<FormattedMessage {...FIGURE_MESSAGES.ebitdaShare} />}
          value={ratio(money.ebitdaShareBasisPoints)}
          testId={`dashboard-ebitda-share-${currency}`}
          note={
            money.ebitdaMinor === null ? (
              <FormattedMessage id="dashboard.figures.ebitdaNone" defaultMessage="No EBITDA entered for these months." />
            ) : (
              <FormattedMessage id="dashboard.figures.ebitdaOf" defaultMessage="EBITDA of the period: {amount}" values={{ amount: amount(money.ebitdaMinor) }} />
            )
          }
        />
        <Figure
          label={<FormattedMessage {...FIGURE_MESSAGES.estimatedRemuneration} />}
          value={amount(money.estimatedRemunerationMinor)}
          testId={`dashboard-estimated-remuneration-${currency}`}
        />
        <Figure
          label={<FormattedMessage {...FIGURE_MESSAGES.approvedRemuneration} />}
          value={amount(money.approvedRemunerationMinor)}
          testId={`dashboard-approved-remuneration-${currency}`}
        />
      </dl>
    </div>
  );
}

function Section({ id, title, children, links }: { id: string; title: ReactNode; children: ReactNode; links?: ReactNode }) {
  return (
    <section className="dashboard-section" aria-labelledby={`dashboard-${id}-title`} data-section={id}>
      <h2 className="dashboard-section__title" id={`dashboard-${id}-title`}>
        {title}
      </h2>
      {children}
      {links !== undefined && <p className="dashboard-section__links">{links}</p>}
    </section>
  );
}

function GoalIndicators({ dashboard, unitTitle }: { dashboard: Dashboard; unitTitle: (unitId: string) => string }) {
  const intl = useIntl();
  const { indicators } = dashboard.goals;
  if (indicators.length === 0) return null;
  return (
    <ul className="goal-progress" aria-label={intl.formatMessage({ id: 'dashboard.goals.indicators', defaultMessage: 'Progress of the goals\u2019 indicators' })}>
      {indicators.map((goal) => {
        const progress = formatRatio(intl, goal.progressBasisPoints);
        const width = goal.progressBasisPoints === null ? 0 : Math.min(100, goal.progressBasisPoints / 100);
        return (
          <li className="goal-progress__item" key={goal.goalId} data-goal={goal.goalId}>
            <span className="goal-progress__name">{goal.direction}</span>
            <span className="goal-progress__text">
              {goal.achievedValue === null ? (
                <FormattedMessage
                  id="dashboard.goals.noReport"
                  defaultMessage="Target {target, number} {unit}; no report yet."
                  values={{ target: goal.targetValue, unit: unitTitle(goal.unitId) }}
                />
              ) : (
                <FormattedMessage
                  id="dashboard.goals.progress"
                  defaultMessage="{achieved, number} of {target, number} {unit}{progress, select, none {} other { ({progress})}}"
                  values={{ achieved: goal.achievedValue, target: goal.targetValue, unit: unitTitle(goal.unitId), progress: progress ?? 'none' }}
                />
              )}
            </span>
            <span className="goal-progress__bar" aria-hidden="true">
              <span className="goal-progress__fill" style={{ width: `${width}%` }} />
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export interface DashboardFiguresProps {
  companyId: string;
  dashboard: Dashboard;
  unitTitle: (unitId: string) => string;
  /** Links to the company's registry page (the viewer may see it). */
  showRegistryLink: boolean;
  /** The owner's "Registries to approve: N" (null: not the owner). */
  registriesToApprove: number | null;
}

export function DashboardFigures({ companyId, dashboard, unitTitle, showRegistryLink, registriesToApprove }: DashboardFiguresProps) {
  const intl = useIntl();
  const { proposals, involvement, reports } = dashboard;
  const count = (value: number) => intl.formatNumber(value);
  return (
    <div className="dashboard-figures" data-testid="dashboard-figures">
      <Section
        id="money"
        title={<FormattedMessage {...SECTION_MESSAGES.money} />}
        links={
          (showRegistryLink || registriesToApprove !== null) && (
            <>
              {registriesToApprove !== null && registriesToApprove > 0 && (
                <Link href={paths.company.registryApprove(companyId)} className="dashboard-section__strong-link" data-testid="dashboard-registries-to-approve">
                  <FormattedMessage id="dashboard.registry.toApprove" defaultMessage="Registries to approve: {count, number}" values={{ count: registriesToApprove }} />
                </Link>
              )}
              {showRegistryLink && (
                <Link href={paths.company.registry(companyId)}>
                  <FormattedMessage id="dashboard.registry.link" defaultMessage="The registry of approved projects" />
                </Link>
              )}
            </>
          )
        }
      >
        {dashboard.money.length === 0 ? (
          <p className="dashboard__note" data-empty="money">
            <FormattedMessage id="dashboard.money.none" defaultMessage="No money figures in this period: no project was approved or completed and no EBITDA was entered." />
          </p>
        ) : (
          dashboard.money.map((money) => <MoneyFigures key={money.currency} money={money} showCurrency={dashboard.money.length > 1} />)
        )}
      </Section>

      <Section id="proposals" title={<FormattedMessage {...SECTION_MESSAGES.proposals} />}>
        <dl className="figures">
          <Figure label={<FormattedMessage {...FIGURE_MESSAGES.submitted} />} value={count(proposals.submitted)} testId="dashboard-proposals-submitted" />
          <Figure label={<FormattedMessage {...FIGURE_MESSAGES.approved} />} value={count(proposals.approved)} testId="dashboard-proposals-approved" />
          <Figure label={<FormattedMessage {...FIGURE_MESSAGES.rejected} />} value={count(proposals.rejected)} testId="dashboard-proposals-rejected" />
          <Figure label={<FormattedMessage {...FIGURE_MESSAGES.overdue} />} value={count(proposals.overdue)} testId="dashboard-proposals-overdue" />
          <Figure
            label={<FormattedMessage {...FIGURE_MESSAGES.medianDecision} />}
            value={proposals.medianDecisionHours === null ? <NoValue /> : formatDecisionTime(intl, proposals.medianDecisionHours)}
            testId="dashboard-median-decision"
          />
        </dl>
      </Section>

      <Section
        id="projects"
        title={<FormattedMessage {...SECTION_MESSAGES.projects} />}
        links={
          <Link href={paths.company.projects(companyId)}>
            <FormattedMessage id="dashboard.projects.link" defaultMessage="All projects" />
          </Link>
        }
      >
        <dl className="figures figures--compact">
          {DASHBOARD_PROJECT_STATUSES.map((status) => (
            <Figure key={status} label={<FormattedMessage {...PROJECT_STATUS_MESSAGES[status]} />} value={count(dashboard.projects.byStatus[status] ?? 0)} testId={`dashboard-projects-${status}`} />
          ))}
        </dl>
      </Section>

      <Section
        id="goals"
        title={<FormattedMessage {...SECTION_MESSAGES.goals} />}
        links={
          <Link href={paths.company.goals(companyId)}>
            <FormattedMessage id="dashboard.goals.link" defaultMessage="All goals" />
          </Link>
        }
      >
        <dl className="figures figures--compact">
          {DASHBOARD_GOAL_STATUSES.map((status) => (
            <Figure key={status} label={<FormattedMessage {...GOAL_STATUS_MESSAGES[status]} />} value={count(dashboard.goals.byStatus[status] ?? 0)} testId={`dashboard-goals-${status}`} />
          ))}
        </dl>
        <GoalIndicators dashboard={dashboard} unitTitle={unitTitle} />
      </Section>

      <Section id="involvement" title={<FormattedMessage {...SECTION_MESSAGES.involvement} />}>
        <dl className="figures">
          <Figure
            label={<FormattedMessage {...FIGURE_MESSAGES.involvedShare} />}
            value={formatRatio(intl, involvement.shareBasisPoints) ?? <NoValue />}
            testId="dashboard-involvement-share"
            note={
              <FormattedMessage
                id="dashboard.involvement.counts"
                defaultMessage="{involved, number} of {active, number} active employees"
                values={{ involved: involvement.involvedEmployees, active: involvement.activeEmployees }}
              />
            }
          />
        </dl>
      </Section>

      <Section id="reports" title={<FormattedMessage {...SECTION_MESSAGES.reports} />}>
        <dl className="figures figures--compact">
          <Figure label={<FormattedMessage {...FIGURE_MESSAGES.reportsDue} />} value={count(reports.due)} testId="dashboard-reports-due" />
          <Figure label={<FormattedMessage {...FIGURE_MESSAGES.reportsLate} />} value={count(reports.late)} testId="dashboard-reports-late" />
        </dl>
      </Section>
    </div>
  );
}
