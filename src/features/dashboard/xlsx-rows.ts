// The dashboard as an Excel workbook: one sheet per section (money, effect by month, goals, projects, proposals,
// the funnel, involvement, reports), built as plain rows from a Dashboard. Pure; `exportDashboardXlsx` in
// xlsx-export.ts writes them with write-excel-file, loaded only when the user exports.
// Guarantees: every text cell (labels, goal directions, department names) goes through `neutralizeFormula`, so a
// name typed as '=HYPERLINK(...)' opens as text, never as a formula; money is a number of major units in a
// money format (one currency per row, never summed across currencies), ratios are numbers in a percent format,
// counts are numbers; a figure the server has no value for (a ratio without a denominator) is an empty cell.
import type { IntlShape, MessageDescriptor } from 'react-intl';
import type { Cell, Row } from 'write-excel-file/browser';
import { DASHBOARD_GOAL_STATUSES, DASHBOARD_PROJECT_STATUSES, type Dashboard } from '../../domain/dashboard';
import { MINOR_PER_MAJOR } from '../../domain/money';
import { neutralizeFormula } from '../../domain/spreadsheet';
import { formatCalendarDate } from './format';
import { FIGURE_MESSAGES, FUNNEL_MESSAGES, GOAL_STATUS_MESSAGES, PROJECT_STATUS_MESSAGES, SECTION_MESSAGES } from './messages';

export interface DashboardSheet {
  /** At most 31 characters, none of `[]:*?/\` (Excel's rules for sheet names). */
  name: string;
  data: Row[];
  columns: { width: number }[];
}

export interface WorkbookContext {
  /** What the figures cover: 'Whole company', a department's name. */
  scopeName: string;
  /** The title of an indicator unit id (the app config's units); the id itself when unknown. */
  unitTitle: (unitId: string) => string;
}

type Intl = Pick<IntlShape, 'formatMessage' | 'formatDate' | 'locale'>;

const MONEY_FORMAT = '#,##0.00';
const PERCENT_FORMAT = '0.0%';
const BASIS_POINTS_PER_WHOLE = 10_000;

/** A text cell that a spreadsheet never runs as a formula. */
export function textCell(value: string): Cell {
  return { value: neutralizeFormula(value), type: String };
}

function countCell(value: number): Cell {
  return { value, type: Number };
}

function moneyCell(amountMinor: number | null): Cell {
  return amountMinor === null ? null : { value: amountMinor / MINOR_PER_MAJOR, type: Number, format: MONEY_FORMAT };
}

function ratioCell(basisPoints: number | null): Cell {
  return basisPoints === null ? null : { value: basisPoints / BASIS_POINTS_PER_WHOLE, type: Number, format: PERCENT_FORMAT };
}

function headerRow(intl: Intl, descriptors: readonly MessageDescriptor[]): Row {
  return descriptors.map((descriptor): Cell => ({ value: neutralizeFormula(intl.formatMessage(descriptor)), type: String, fontWeight: 'bold' }));
}

/** A sheet name Excel accepts: the forbidden characters replaced, at most 31 characters. */
export function sheetName(text: string): string {
  return text.replace(/[[\]:*?/\\]/g, ' ').trim().slice(0, 31) || 'Sheet';
}

function sheet(intl: Intl, title: MessageDescriptor, data: Row[], widths: readonly number[]): DashboardSheet {
  return { name: sheetName(intl.formatMessage(title)), data, columns: widths.map((width) => ({ width })) };
}

function aboutRows(intl: Intl, dashboard: Dashboard, context: WorkbookContext): Row[] {
  const period = `${formatCalendarDate(intl, dashboard.from)} – ${formatCalendarDate(intl, dashboard.to)}`;
  const computed = intl.formatDate(dashboard.computedAt, { dateStyle: 'medium', timeStyle: 'short' });
  return [
    [textCell(intl.formatMessage(FIGURE_MESSAGES.period)), textCell(period)],
    [textCell(intl.formatMessage(FIGURE_MESSAGES.scope)), textCell(context.scopeName)],
    [textCell(intl.formatMessage(FIGURE_MESSAGES.computedAt)), textCell(computed)],
    [],
  ];
}

function moneySheet(intl: Intl, dashboard: Dashboard, context: WorkbookContext): DashboardSheet {
  const header = headerRow(intl, [
    FIGURE_MESSAGES.currency,
    FIGURE_MESSAGES.expectedEffect,
    FIGURE_MESSAGES.actualEffect,
    FIGURE_MESSAGES.costs,
    FIGURE_MESSAGES.efficiency,
    FIGURE_MESSAGES.ebitda,
    FIGURE_MESSAGES.ebitdaShare,
    FIGURE_MESSAGES.estimatedRemuneration,
    FIGURE_MESSAGES.approvedRemuneration,
  ]);
  const rows = dashboard.money.map((money): Row => [
    textCell(money.currency),
    moneyCell(money.expectedEffect12mMinor),
    moneyCell(money.actualEffect12mMinor),
    moneyCell(money.costsMinor),
    ratioCell(money.efficiencyBasisPoints),
    moneyCell(money.ebitdaMinor),
    ratioCell(money.ebitdaShareBasisPoints),
    moneyCell(money.estimatedRemunerationMinor),
    moneyCell(money.approvedRemunerationMinor),
  ]);
  return sheet(intl, SECTION_MESSAGES.money, [...aboutRows(intl, dashboard, context), header, ...rows], [22, 20, 20, 18, 16, 18, 16, 20, 20]);
}

function effectSheet(intl: Intl, dashboard: Dashboard): DashboardSheet {
  const header = headerRow(intl, [FIGURE_MESSAGES.month, FIGURE_MESSAGES.currency, FIGURE_MESSAGES.expected, FIGURE_MESSAGES.actual]);
  const rows = dashboard.effectByMonth.map((month): Row => [
    textCell(month.month),
    textCell(month.currency),
    moneyCell(month.expectedEffect12mMinor),
    moneyCell(month.actualEffect12mMinor),
  ]);
  return sheet(intl, SECTION_MESSAGES.effectByMonth, [header, ...rows], [12, 10, 20, 20]);
}

function goalsSheet(intl: Intl, dashboard: Dashboard, context: WorkbookContext): DashboardSheet {
  const counts = DASHBOARD_GOAL_STATUSES.map((status): Row => [textCell(intl.formatMessage(GOAL_STATUS_MESSAGES[status])), countCell(dashboard.goals.byStatus[status] ?? 0)]);
  const indicators = dashboard.goals.indicators.map((goal): Row => [
    textCell(goal.direction),
    textCell(intl.formatMessage(GOAL_STATUS_MESSAGES[goal.status])),
    countCell(goal.targetValue),
    textCell(context.unitTitle(goal.unitId)),
    goal.achievedValue === null ? null : countCell(goal.achievedValue),
    ratioCell(goal.progressBasisPoints),
  ]);
  return sheet(
    intl,
    SECTION_MESSAGES.goals,
    [
      headerRow(intl, [FIGURE_MESSAGES.status, FIGURE_MESSAGES.count]),
      ...counts,
      [],
      headerRow(intl, [FIGURE_MESSAGES.direction, FIGURE_MESSAGES.status, FIGURE_MESSAGES.target, FIGURE_MESSAGES.unit, FIGURE_MESSAGES.achieved, FIGURE_MESSAGES.progress]),
      ...indicators,
    ],
    [36, 18, 12, 12, 12, 12],
  );
}

function projectsSheet(intl: Intl, dashboard: Dashboard): DashboardSheet {
  const rows = DASHBOARD_PROJECT_STATUSES.map((status): Row => [textCell(intl.formatMessage(PROJECT_STATUS_MESSAGES[status])), countCell(dashboard.projects.byStatus[status] ?? 0)]);
  return sheet(intl, SECTION_MESSAGES.projects, [headerRow(intl, [FIGURE_MESSAGES.status, FIGURE_MESSAGES.count]), ...rows], [24, 10]);
}

function proposalsSheet(intl: Intl, dashboard: Dashboard): DashboardSheet {
  const { proposals } = dashboard;
  const rows: Row[] = [
    [textCell(intl.formatMessage(FIGURE_MESSAGES.submitted)), countCell(proposals.submitted)],
    [textCell(intl.formatMessage(FIGURE_MESSAGES.approved)), countCell(proposals.approved)],
    [textCell(intl.formatMessage(FIGURE_MESSAGES.rejected)), countCell(proposals.rejected)],
    [textCell(intl.formatMessage(FIGURE_MESSAGES.overdue)), countCell(proposals.overdue)],
    [textCell(intl.formatMessage(FIGURE_MESSAGES.medianDecisionHours)), proposals.medianDecisionHours === null ? null : { value: proposals.medianDecisionHours, type: Number, format: '0.0' }],
  ];
  return sheet(intl, SECTION_MESSAGES.proposals, rows, [32, 12]);
}

function funnelSheet(intl: Intl, dashboard: Dashboard): DashboardSheet {
  const stages = (['proposals', 'projects', 'approved', 'completed'] as const).map((stage): Row => [textCell(intl.formatMessage(FUNNEL_MESSAGES[stage])), countCell(dashboard.funnel[stage])]);
  return sheet(intl, SECTION_MESSAGES.funnel, [headerRow(intl, [FIGURE_MESSAGES.stage, FIGURE_MESSAGES.count]), ...stages], [28, 10]);
}

function involvementSheet(intl: Intl, dashboard: Dashboard): DashboardSheet {
  const { involvement } = dashboard;
  const shareOf = (involved: number, active: number) => (active === 0 ? null : Math.floor((involved * BASIS_POINTS_PER_WHOLE) / active));
  const departments = involvement.byDepartment.map((department): Row => [
    textCell(department.name),
    countCell(department.activeEmployees),
    countCell(department.involvedEmployees),
    ratioCell(shareOf(department.involvedEmployees, department.activeEmployees)),
  ]);
  return sheet(
    intl,
    SECTION_MESSAGES.involvement,
    [
      [textCell(intl.formatMessage(FIGURE_MESSAGES.activeEmployees)), countCell(involvement.activeEmployees)],
      [textCell(intl.formatMessage(FIGURE_MESSAGES.involvedEmployees)), countCell(involvement.involvedEmployees)],
      [textCell(intl.formatMessage(FIGURE_MESSAGES.involvedShare)), ratioCell(involvement.shareBasisPoints)],
      [],
      headerRow(intl, [FIGURE_MESSAGES.department, FIGURE_MESSAGES.activeEmployees, FIGURE_MESSAGES.involvedEmployees, FIGURE_MESSAGES.involvedShare]),
      ...departments,
    ],
    [32, 18, 18, 14],
  );
}

function reportsSheet(intl: Intl, dashboard: Dashboard): DashboardSheet {
  return sheet(
    intl,
    SECTION_MESSAGES.reports,
    [
      [textCell(intl.formatMessage(FIGURE_MESSAGES.reportsDue)), countCell(dashboard.reports.due)],
      [textCell(intl.formatMessage(FIGURE_MESSAGES.reportsLate)), countCell(dashboard.reports.late)],
    ],
    [30, 10],
  );
}

/** The workbook's sheets, in the order of the screen. */
export function dashboardSheets(intl: Intl, dashboard: Dashboard, context: WorkbookContext): DashboardSheet[] {
  return [
    moneySheet(intl, dashboard, context),
    effectSheet(intl, dashboard),
    goalsSheet(intl, dashboard, context),
    projectsSheet(intl, dashboard),
    proposalsSheet(intl, dashboard),
    funnelSheet(intl, dashboard),
    involvementSheet(intl, dashboard),
    reportsSheet(intl, dashboard),
  ];
}

/** The file name of the export: the period only (a department's name may hold anything a file name may not). */
export function exportFileName(dashboard: Pick<Dashboard, 'from' | 'to'>): string {
  return `dashboard-${dashboard.from}-${dashboard.to}.xlsx`;
}
