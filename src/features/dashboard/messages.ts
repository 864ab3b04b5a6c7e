// The names of the dashboard's figures, states and sections: one set of messages for the screen, its tables and
// its XLSX export, so the three always say the same thing.
import { defineMessages } from 'react-intl';
import type { GoalStatus } from '../../domain/goal';
import type { ProjectStatus } from '../../domain/project';

export const FIGURE_MESSAGES = defineMessages({
  currency: { id: 'dashboard.figures.currency', defaultMessage: 'Currency' },
  expectedEffect: { id: 'dashboard.figures.expectedEffect', defaultMessage: 'Expected economic effect (12 months)' },
  actualEffect: { id: 'dashboard.figures.actualEffect', defaultMessage: 'Actual economic effect (12 months)' },
  costs: { id: 'dashboard.figures.costs', defaultMessage: 'Costs' },
  efficiency: { id: 'dashboard.figures.efficiency', defaultMessage: 'Efficiency (effect / costs)' },
  ebitda: { id: 'dashboard.figures.ebitda', defaultMessage: 'EBITDA of the period' },
  ebitdaShare: { id: 'dashboard.figures.ebitdaShare', defaultMessage: 'Share of EBITDA (expected effect / EBITDA)' },
  estimatedRemuneration: { id: 'dashboard.figures.estimatedRemuneration', defaultMessage: 'Remuneration, estimated' },
  approvedRemuneration: { id: 'dashboard.figures.approvedRemuneration', defaultMessage: 'Remuneration, approved by the owner' },
  submitted: { id: 'dashboard.figures.submitted', defaultMessage: 'Submitted' },
  approved: { id: 'dashboard.figures.approved', defaultMessage: 'Approved' },
  rejected: { id: 'dashboard.figures.rejected', defaultMessage: 'Rejected' },
  overdue: { id: 'dashboard.figures.overdue', defaultMessage: 'Overdue' },
  medianDecision: { id: 'dashboard.figures.medianDecision', defaultMessage: 'Median time to a decision' },
  medianDecisionHours: { id: 'dashboard.figures.medianDecisionHours', defaultMessage: 'Median time to a decision, hours' },
  activeEmployees: { id: 'dashboard.figures.activeEmployees', defaultMessage: 'Active employees' },
  involvedEmployees: { id: 'dashboard.figures.involvedEmployees', defaultMessage: 'Involved employees' },
  involvedShare: { id: 'dashboard.figures.involvedShare', defaultMessage: 'Share involved' },
  reportsDue: { id: 'dashboard.figures.reportsDue', defaultMessage: 'Indicator reports due' },
  reportsLate: { id: 'dashboard.figures.reportsLate', defaultMessage: 'Indicator reports late' },
  department: { id: 'dashboard.figures.department', defaultMessage: 'Department' },
  month: { id: 'dashboard.figures.month', defaultMessage: 'Month' },
  status: { id: 'dashboard.figures.status', defaultMessage: 'Status' },
  count: { id: 'dashboard.figures.count', defaultMessage: 'Count' },
  stage: { id: 'dashboard.figures.stage', defaultMessage: 'Stage' },
  direction: { id: 'dashboard.figures.direction', defaultMessage: 'Goal (direction)' },
  target: { id: 'dashboard.figures.target', defaultMessage: 'Target' },
  achieved: { id: 'dashboard.figures.achieved', defaultMessage: 'Achieved' },
  unit: { id: 'dashboard.figures.unit', defaultMessage: 'Unit' },
  progress: { id: 'dashboard.figures.progress', defaultMessage: 'Progress' },
  expected: { id: 'dashboard.figures.expected', defaultMessage: 'Expected' },
  actual: { id: 'dashboard.figures.actual', defaultMessage: 'Actual' },
  period: { id: 'dashboard.figures.period', defaultMessage: 'Period' },
  scope: { id: 'dashboard.figures.scope', defaultMessage: 'Scope' },
  computedAt: { id: 'dashboard.figures.computedAt', defaultMessage: 'Computed at' },
  wholeCompany: { id: 'dashboard.scope.wholeCompany', defaultMessage: 'Whole company' },
  myDepartments: { id: 'dashboard.scope.myDepartments', defaultMessage: 'All my departments' },
  notKnown: { id: 'dashboard.figures.none', defaultMessage: 'none' },
});

export const SECTION_MESSAGES = defineMessages({
  money: { id: 'dashboard.section.money', defaultMessage: 'Money' },
  effectByMonth: { id: 'dashboard.section.effectByMonth', defaultMessage: 'Economic effect by month' },
  goals: { id: 'dashboard.section.goals', defaultMessage: 'Goals' },
  projects: { id: 'dashboard.section.projects', defaultMessage: 'Projects' },
  proposals: { id: 'dashboard.section.proposals', defaultMessage: 'Proposals' },
  funnel: { id: 'dashboard.section.funnel', defaultMessage: 'From proposal to result' },
  involvement: { id: 'dashboard.section.involvement', defaultMessage: 'Staff involvement' },
  reports: { id: 'dashboard.section.reports', defaultMessage: 'Indicator reports' },
});

export const FUNNEL_MESSAGES = defineMessages({
  proposals: { id: 'dashboard.funnel.proposals', defaultMessage: 'Proposals submitted' },
  projects: { id: 'dashboard.funnel.projects', defaultMessage: 'Made into projects' },
  approved: { id: 'dashboard.funnel.approved', defaultMessage: 'Projects approved' },
  completed: { id: 'dashboard.funnel.completed', defaultMessage: 'Projects completed' },
});

export const GOAL_STATUS_MESSAGES = defineMessages({
  NEW: { id: 'dashboard.goalStatus.NEW', defaultMessage: 'New' },
  TO_WORK: { id: 'dashboard.goalStatus.TO_WORK', defaultMessage: 'In work' },
  CLARIFICATION: { id: 'dashboard.goalStatus.CLARIFICATION', defaultMessage: 'For clarification' },
  APPROVED: { id: 'dashboard.goalStatus.APPROVED', defaultMessage: 'Approved' },
}) satisfies Record<GoalStatus, unknown>;

export const PROJECT_STATUS_MESSAGES = defineMessages({
  NEW: { id: 'dashboard.projectStatus.NEW', defaultMessage: 'New' },
  CALCULATING: { id: 'dashboard.projectStatus.CALCULATING', defaultMessage: 'Being calculated' },
  CALCULATED: { id: 'dashboard.projectStatus.CALCULATED', defaultMessage: 'Calculated' },
  APPROVED: { id: 'dashboard.projectStatus.APPROVED', defaultMessage: 'Approved' },
  FOR_REVISION: { id: 'dashboard.projectStatus.FOR_REVISION', defaultMessage: 'For revision' },
  COMPLETED: { id: 'dashboard.projectStatus.COMPLETED', defaultMessage: 'Completed' },
}) satisfies Record<ProjectStatus, unknown>;
