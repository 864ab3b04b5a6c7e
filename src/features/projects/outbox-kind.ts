// The projects' outbox kinds (issue 12), declared once for the app's registry (src/app/outbox-kinds.ts): what the
// Unsent screen calls a queued project, a move of one, its completion, an indicator report and a change of its
// payments, where the user opens the project, how the server's answer is stored, and that the server's push takes
// them (they go in batches). No React here: the service worker imports this module through the registry. Stored
// rows and mirrored projects are untrusted: every value read from them is checked.
import type { MessageDescriptor } from 'react-intl';
import { paths } from '../../domain/paths';
import type { OutboxRow } from '../../lib/db/database';
import { fieldOf, rowEntityOf, stringFieldOf, type RowEntity } from '../../lib/outbox/kind-helpers';
import { projectCreateOutboxKind, projectEditOutboxKind } from './create-outbox-kind';
import { PROJECT_COMPLETE_KIND, PROJECT_INDICATOR_KIND, PROJECT_PAYMENTS_KIND, PROJECT_TRANSITION_KIND } from './kind-names';

/** The store, with its handler, loads when the server has answered a project's row. */
const loadStoreDecidedProject = () => import('./transition-store').then((store) => store.storeDecidedProject);

/** The company and project of a decision row ('/api/v1/companies/{c}/projects/{p}[/transitions|/complete|/indicators]'). */
function projectOf(row: OutboxRow): RowEntity | null {
  return rowEntityOf(row, /^\/api\/v1\/companies\/([^/]+)\/projects\/([^/]+)(?:\/transitions|\/complete|\/indicators)?$/, 'projects');
}

/** The project's name, from the device's copy (a decision's body does not carry it). */
function nameValues(entity: unknown): Record<string, string> {
  const name = stringFieldOf(entity, 'name');
  return { name, hasName: name === '' ? 'no' : 'yes' };
}

const viewLabel: MessageDescriptor = { id: 'outbox.view.project', defaultMessage: 'Open the project' };

/** The project page of the row's project: where the user sees what became of it. */
function projectHref(row: OutboxRow): string | null {
  const project = projectOf(row);
  return project === null ? null : paths.company.project(encodeURIComponent(project.companyId), encodeURIComponent(project.entityId));
}

const transitionLabel: MessageDescriptor = {
  id: 'outbox.kind.projectTransition',
  defaultMessage:
    'Project{hasName, select, yes { “{name}”} other {}}: {to, select, CALCULATING {sent for calculation} CALCULATED {calculated} APPROVED {approved} FOR_REVISION {returned for revision} COMPLETED {completed} other {status changed}}',
};

/** A move (send for calculation, calculated, approve, return): refused with 409 when someone moved it first. */
export const projectTransitionOutboxKind = {
  kind: PROJECT_TRANSITION_KIND,
  label: transitionLabel,
  labelValues: (row: OutboxRow, entity?: unknown): Record<string, string> => ({ ...nameValues(entity), to: stringFieldOf(row.body, 'to') }),
  // Nothing to edit: a refused decision is discarded (the project shows the server's state again) and made anew.
  editHref: (): string | null => null,
  viewHref: projectHref,
  viewLabel,
  loadSuccessHandler: loadStoreDecidedProject,
  pushable: true,
};

const completeLabel: MessageDescriptor = {
  id: 'outbox.kind.projectComplete',
  defaultMessage: 'Project{hasName, select, yes { “{name}”} other {}}: completed on {date}',
};

export const projectCompleteOutboxKind = {
  kind: PROJECT_COMPLETE_KIND,
  label: completeLabel,
  labelValues: (row: OutboxRow, entity?: unknown): Record<string, string> => ({ ...nameValues(entity), date: stringFieldOf(row.body, 'actualCompletionDate') }),
  editHref: (): string | null => null,
  viewHref: projectHref,
  viewLabel,
  loadSuccessHandler: loadStoreDecidedProject,
  pushable: true,
};

const indicatorLabel: MessageDescriptor = {
  id: 'outbox.kind.projectIndicator',
  defaultMessage: 'Project{hasName, select, yes { “{name}”} other {}}: indicator report {value} on {date}',
};

export const projectIndicatorOutboxKind = {
  kind: PROJECT_INDICATOR_KIND,
  label: indicatorLabel,
  labelValues: (row: OutboxRow, entity?: unknown): Record<string, string> => {
    const value = fieldOf(row.body, 'value');
    return { ...nameValues(entity), date: stringFieldOf(row.body, 'date'), value: typeof value === 'number' && Number.isFinite(value) ? String(value) : '' };
  },
  editHref: (): string | null => null,
  viewHref: projectHref,
  viewLabel,
  loadSuccessHandler: loadStoreDecidedProject,
  pushable: true,
};

const paymentsLabel: MessageDescriptor = {
  id: 'outbox.kind.projectPayments',
  defaultMessage: 'Project{hasName, select, yes { “{name}”} other {}}: payments to the team changed',
};

export const projectPaymentsOutboxKind = {
  kind: PROJECT_PAYMENTS_KIND,
  label: paymentsLabel,
  labelValues: (_row: OutboxRow, entity?: unknown): Record<string, string> => nameValues(entity),
  editHref: (): string | null => null,
  viewHref: projectHref,
  viewLabel,
  loadSuccessHandler: loadStoreDecidedProject,
  pushable: true,
};

/** Each entry is an `OutboxKind` of src/app/outbox-kinds.ts (a feature does not import the shell: structural). */
export const projectOutboxKinds = [
  projectCreateOutboxKind,
  projectEditOutboxKind,
  projectTransitionOutboxKind,
  projectCompleteOutboxKind,
  projectIndicatorOutboxKind,
  projectPaymentsOutboxKind,
] as const;
