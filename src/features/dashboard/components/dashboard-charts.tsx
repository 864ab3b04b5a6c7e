// The dashboard's three charts, each with its table (bar-chart.tsx): the economic effect by month (expected vs.
// actual, one chart per currency: money of different currencies is never added up), the funnel from proposals
// to completed projects (horizontal bars), and the involvement of staff by department.
import { useMemo } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import type { Dashboard } from '../../../domain/dashboard';
import { MINOR_PER_MAJOR } from '../../../domain/money';
import { formatMoney, formatMonth, formatShortMonth } from '../format';
import { FIGURE_MESSAGES, FUNNEL_MESSAGES, SECTION_MESSAGES } from '../messages';
import { BarChart } from './bar-chart';
import type { ChartConstructor } from './chart-loader';

/** Bar colours with at least 3:1 contrast on white, and apart from each other. */
export const CHART_COLORS = { expected: '#1d4ed8', actual: '#b45309', funnel: '#0f766e', active: '#64748b', involved: '#1d4ed8' } as const;

const FUNNEL_STAGES = ['proposals', 'projects', 'approved', 'completed'] as const;

interface ChartsProps {
  dashboard: Dashboard;
  /** Where chart.js comes from (tests give a stand-in); chart-loader.ts by default. */
  loadChart?: () => Promise<ChartConstructor>;
}

function currencyAxis(intl: IntlShape, currency: string): (value: number) => string {
  const format = new Intl.NumberFormat(intl.locale, { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
  return (value) => format.format(value);
}

function EffectChart({ dashboard, currency, loadChart }: ChartsProps & { currency: string }) {
  const intl = useIntl();
  const months = useMemo(() => dashboard.effectByMonth.filter((month) => month.currency === currency), [dashboard, currency]);
  const labels = useMemo(() => months.map((month) => formatShortMonth(intl, month.month)), [months, intl]);
  const series = useMemo(
    () => [
      { label: intl.formatMessage(FIGURE_MESSAGES.expected), values: months.map((month) => month.expectedEffect12mMinor / MINOR_PER_MAJOR), color: CHART_COLORS.expected },
      { label: intl.formatMessage(FIGURE_MESSAGES.actual), values: months.map((month) => month.actualEffect12mMinor / MINOR_PER_MAJOR), color: CHART_COLORS.actual },
    ],
    [months, intl],
  );
  const formatValue = useMemo(() => currencyAxis(intl, currency), [intl, currency]);
  const expected = months.reduce((sum, month) => sum + month.expectedEffect12mMinor, 0);
  const actual = months.reduce((sum, month) => sum + month.actualEffect12mMinor, 0);
  const title = <FormattedMessage id="dashboard.chart.effect.title" defaultMessage="Economic effect by month, {currency}" values={{ currency }} />;
  return (
    <BarChart
      testId={`dashboard-chart-effect-${currency}`}
      title={title}
      summary={intl.formatMessage(
        { id: 'dashboard.chart.effect.summary', defaultMessage: 'Bars by month, {months, plural, one {# month} other {# months}}: expected effect {expected} in all, actual {actual}.' },
        { months: months.length, expected: formatMoney(intl, expected, currency), actual: formatMoney(intl, actual, currency) },
      )}
      labels={labels}
      series={series}
      formatValue={formatValue}
      load={loadChart}
      table={
        <>
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.month} />
              </th>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.expected} />
              </th>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.actual} />
              </th>
            </tr>
          </thead>
          <tbody>
            {months.map((month) => (
              <tr key={month.month}>
                <th scope="row">{formatMonth(intl, month.month)}</th>
                <td>{formatMoney(intl, month.expectedEffect12mMinor, currency)}</td>
                <td>{formatMoney(intl, month.actualEffect12mMinor, currency)}</td>
              </tr>
            ))}
          </tbody>
        </>
      }
    />
  );
}

function FunnelChart({ dashboard, loadChart }: ChartsProps) {
  const intl = useIntl();
  const labels = useMemo(() => FUNNEL_STAGES.map((stage) => intl.formatMessage(FUNNEL_MESSAGES[stage])), [intl]);
  const series = useMemo(
    () => [{ label: intl.formatMessage(FIGURE_MESSAGES.count), values: FUNNEL_STAGES.map((stage) => dashboard.funnel[stage]), color: CHART_COLORS.funnel }],
    [dashboard, intl],
  );
  const formatValue = useMemo(() => (value: number) => intl.formatNumber(value), [intl]);
  const { funnel } = dashboard;
  return (
    <BarChart
      testId="dashboard-chart-funnel"
      title={<FormattedMessage {...SECTION_MESSAGES.funnel} />}
      summary={intl.formatMessage(
        {
          id: 'dashboard.chart.funnel.summary',
          defaultMessage: 'Of {proposals, number} proposals submitted, {projects, number} became projects, {approved, number} were approved and {completed, number} completed.',
        },
        { ...funnel },
      )}
      labels={labels}
      series={series}
      horizontal
      height={200}
      formatValue={formatValue}
      load={loadChart}
      table={
        <>
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.stage} />
              </th>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.count} />
              </th>
            </tr>
          </thead>
          <tbody>
            {FUNNEL_STAGES.map((stage, index) => (
              <tr key={stage}>
                <th scope="row">{labels[index]}</th>
                <td>{intl.formatNumber(funnel[stage])}</td>
              </tr>
            ))}
          </tbody>
        </>
      }
    />
  );
}

function InvolvementChart({ dashboard, loadChart }: ChartsProps) {
  const intl = useIntl();
  const departments = dashboard.involvement.byDepartment;
  const labels = useMemo(() => departments.map((department) => department.name), [departments]);
  const series = useMemo(
    () => [
      { label: intl.formatMessage(FIGURE_MESSAGES.activeEmployees), values: departments.map((department) => department.activeEmployees), color: CHART_COLORS.active },
      { label: intl.formatMessage(FIGURE_MESSAGES.involvedEmployees), values: departments.map((department) => department.involvedEmployees), color: CHART_COLORS.involved },
    ],
    [departments, intl],
  );
  const formatValue = useMemo(() => (value: number) => intl.formatNumber(value), [intl]);
  const shareOf = (involved: number, active: number) =>
    active === 0 ? '—' : intl.formatNumber(involved / active, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return (
    <BarChart
      testId="dashboard-chart-involvement"
      title={<FormattedMessage id="dashboard.chart.involvement.title" defaultMessage="Staff involvement by department" />}
      summary={intl.formatMessage(
        {
          id: 'dashboard.chart.involvement.summary',
          defaultMessage: 'Bars for {count, plural, one {# department} other {# departments}}: active employees and those involved in improvement.',
        },
        { count: departments.length },
      )}
      labels={labels}
      series={series}
      height={Math.max(200, 48 + departments.length * 24)}
      formatValue={formatValue}
      load={loadChart}
      table={
        <>
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.department} />
              </th>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.activeEmployees} />
              </th>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.involvedEmployees} />
              </th>
              <th scope="col">
                <FormattedMessage {...FIGURE_MESSAGES.involvedShare} />
              </th>
            </tr>
          </thead>
          <tbody>
            {departments.map((department) => (
              <tr key={department.departmentId}>
                <th scope="row">{department.name}</th>
                <td>{intl.formatNumber(department.activeEmployees)}</td>
                <td>{intl.formatNumber(department.involvedEmployees)}</td>
                <td>{shareOf(department.involvedEmployees, department.activeEmployees)}</td>
              </tr>
            ))}
          </tbody>
        </>
      }
    />
  );
}

/** The charts section: effect by month per currency, the funnel, involvement by department. */
export function DashboardCharts({ dashboard, loadChart }: ChartsProps) {
  const currencies = dashboard.money.map((money) => money.currency);
  return (
    <section className="dashboard-charts" aria-labelledby="dashboard-charts-title">
      <h2 className="dashboard-section__title" id="dashboard-charts-title">
        <FormattedMessage id="dashboard.charts.title" defaultMessage="Charts" />
      </h2>
      <div className="dashboard-charts__grid">
        <div className="dashboard-charts__effect" data-testid="dashboard-chart-effect">
          {currencies.length === 0 ? (
            <p className="dashboard__note">
              <FormattedMessage id="dashboard.chart.effect.none" defaultMessage="No economic effect in this period yet." />
            </p>
          ) : (
            currencies.map((currency) => <EffectChart key={currency} dashboard={dashboard} currency={currency} loadChart={loadChart} />)
          )}
        </div>
        <FunnelChart dashboard={dashboard} loadChart={loadChart} />
        <InvolvementChart dashboard={dashboard} loadChart={loadChart} />
      </div>
    </section>
  );
}
