// The project form's words (react-intl descriptors; the catalogues hold them in ru and en).
import type { MessageDescriptor } from 'react-intl';
import type { EffectRepeatability, ProjectType, ReportingFrequency } from '../../../domain/project';

const types: Record<ProjectType, MessageDescriptor> = {
  ORGANIZATIONAL: { id: 'projects.form.type.ORGANIZATIONAL', defaultMessage: 'Organizational' },
  TECHNICAL: { id: 'projects.form.type.TECHNICAL', defaultMessage: 'Technical' },
  INVESTMENT: { id: 'projects.form.type.INVESTMENT', defaultMessage: 'Investment' },
};

const frequencies: Record<ReportingFrequency, MessageDescriptor> = {
  WEEKLY: { id: 'projects.form.frequency.WEEKLY', defaultMessage: 'Weekly' },
  MONTHLY: { id: 'projects.form.frequency.MONTHLY', defaultMessage: 'Monthly' },
  QUARTERLY: { id: 'projects.form.frequency.QUARTERLY', defaultMessage: 'Quarterly' },
  HALF_YEARLY: { id: 'projects.form.frequency.HALF_YEARLY', defaultMessage: 'Every six months' },
};

const repeatabilities: Record<EffectRepeatability, MessageDescriptor> = {
  ONE_TIME: { id: 'projects.form.repeatability.ONE_TIME', defaultMessage: 'One-time effect' },
  RECURRING: { id: 'projects.form.repeatability.RECURRING', defaultMessage: 'Recurring every year' },
};

export const PROJECT_FORM_MESSAGES = {
  types,
  frequencies,
  repeatabilities,
  ...({
    sectionProject: { id: 'projects.form.section.project', defaultMessage: 'The project' },
    sectionMetrics: { id: 'projects.form.section.metrics', defaultMessage: 'Metrics and dates' },
    sectionTeam: { id: 'projects.form.section.team', defaultMessage: 'Team' },
    sectionTerms: { id: 'projects.form.section.terms', defaultMessage: 'Remuneration terms' },
    name: { id: 'projects.form.name', defaultMessage: 'Project name' },
    problem: { id: 'projects.form.problem', defaultMessage: 'Problem description' },
    photos: { id: 'projects.form.photos', defaultMessage: 'Photos' },
    photoKept: { id: 'projects.form.photoKept', defaultMessage: 'Ready: sent with the project' },
    photosTip: {
      id: 'projects.form.photosTip',
      defaultMessage:
        '{carried, plural, =0 {} one {# photo comes with the proposal. } other {# photos come with the proposal. }}PNG or JPEG, up to {max} in all. They are kept on this device and sent with the project, also when you are offline now.',
    },
    photosKept: { id: 'projects.form.photosKept', defaultMessage: 'The photos stay as they are.' },
    type: { id: 'projects.form.type', defaultMessage: 'Project type' },
    businessCustomer: { id: 'projects.form.businessCustomer', defaultMessage: 'Business customer' },
    goals: { id: 'projects.form.goals', defaultMessage: 'Goals' },
    chooseGoals: { id: 'projects.form.chooseGoals', defaultMessage: 'Choose goals' },
    noGoals: { id: 'projects.form.noGoals', defaultMessage: 'The company has no goals on this device yet.' },
    tooManyGoals: { id: 'projects.form.tooManyGoals', defaultMessage: 'Choose at most {max} goals.' },
    baselineValue: { id: 'projects.form.baselineValue', defaultMessage: 'Baseline metric' },
    targetValue: { id: 'projects.form.targetValue', defaultMessage: 'Target metric' },
    unit: { id: 'projects.form.unit', defaultMessage: 'Unit' },
    chooseUnit: { id: 'projects.form.chooseUnit', defaultMessage: 'Choose a unit' },
    completionDate: { id: 'projects.form.completionDate', defaultMessage: 'Completion date' },
    reportingFrequency: { id: 'projects.form.reportingFrequency', defaultMessage: 'Reporting frequency' },
    postMonitoringPeriodicity: { id: 'projects.form.postMonitoringPeriodicity', defaultMessage: 'Post-monitoring periodicity' },
    projectManager: { id: 'projects.form.projectManager', defaultMessage: 'Project manager' },
    member: { id: 'projects.form.member', defaultMessage: 'Team member' },
    role: { id: 'projects.form.role', defaultMessage: 'Role in the project' },
    memberTwice: { id: 'projects.form.memberTwice', defaultMessage: 'This employee is already in the team.' },
    addMember: { id: 'projects.form.addMember', defaultMessage: 'Add a team member' },
    removeMember: { id: 'projects.form.removeMember', defaultMessage: 'Remove' },
    serviceNumber: { id: 'projects.form.serviceNumber', defaultMessage: 'Service number {number}' },
    employeeWithNumber: { id: 'projects.form.employeeWithNumber', defaultMessage: '{name} (No. {number})' },
    chooseEmployee: { id: 'projects.form.chooseEmployee', defaultMessage: 'Choose an employee' },
    noEmployees: { id: 'projects.form.noEmployees', defaultMessage: 'No employees on this device yet: connect once so they can load.' },
    currency: { id: 'projects.form.currency', defaultMessage: 'Currency' },
    profitPercent: { id: 'projects.form.profitPercent', defaultMessage: 'Share of the profit, %' },
    profitTip: { id: 'projects.form.profitTip', defaultMessage: 'For example 12,5: up to two decimals, at most 100.' },
    maxPerProject: { id: 'projects.form.maxPerProject', defaultMessage: 'Maximum per project (optional)' },
    maxTip: { id: 'projects.form.maxTip', defaultMessage: 'The remuneration never exceeds this amount. For example 150 000,50.' },
    effectRepeatability: { id: 'projects.form.effectRepeatability', defaultMessage: 'Effect repeatability' },
    paymentsLater: {
      id: 'projects.form.paymentsLater',
      defaultMessage: 'Payments to the team are set on the project page once finance has calculated the expected effect and the remuneration is known.',
    },
    create: { id: 'projects.form.create', defaultMessage: 'Create the project' },
    save: { id: 'projects.form.save', defaultMessage: 'Save the changes' },
  } satisfies Record<string, MessageDescriptor>),
};
