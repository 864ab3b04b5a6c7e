// The project form's outbox kinds (issue 12): a queued project creation (`project.create`, POST) and the lead's
// edit (`project.edit`, PATCH), for the app's registry through projectOutboxKinds (outbox-kind.ts). What the
// Unsent screen calls them, where the user edits a refused one (the project form, `?edit=<projectId>`), where
// the project is seen, and how the server's answer is stored. No React here: the service worker imports this
// module through the registry. Stored rows are untrusted: every value read from them is checked.
import type { MessageDescriptor } from 'react-intl';
import { paths } from '../../domain/paths';
import type { OutboxRow } from '../../lib/db/database';
import { rowEntityOf, stringFieldOf, type RowEntity } from '../../lib/outbox/kind-helpers';
import { PROJECT_CREATE_KIND, PROJECT_EDIT_KIND } from './kind-names';

/** The store, with its handler, loads when the server has answered a project's row. */
const loadStoreSentProject = () => import('./store').then((store) => store.storeSentProject);

/** The company and project of a row ('/api/v1/companies/{c}/projects' with the entity key, or '.../projects/{p}'). */
function projectOf(row: OutboxRow): RowEntity | null {
  return rowEntityOf(row, /^\/api\/v1\/companies\/([^/]+)\/projects(?:\/([^/]+))?$/, 'projects');
}

/** The project form filled from the device's copy of the project, which revises or re-queues it. */
function editHref(row: OutboxRow): string | null {
  const project = projectOf(row);
  return project === null ? null : `${paths.company.projectsCreate(encodeURIComponent(project.companyId))}?edit=${encodeURIComponent(project.entityId)}`;
}

function viewHref(row: OutboxRow): string | null {
  const project = projectOf(row);
  return project === null ? null : paths.company.project(encodeURIComponent(project.companyId), encodeURIComponent(project.entityId));
}

const viewLabel: MessageDescriptor = { id: 'outbox.view.project', defaultMessage: 'Open the project' };

const createLabel: MessageDescriptor = { id: 'outbox.kind.projectCreate', defaultMessage: 'New project “{name}”' };

export const projectCreateOutboxKind = {
  kind: PROJECT_CREATE_KIND,
  label: createLabel,
  labelValues: (row: OutboxRow): Record<string, string> => ({ name: stringFieldOf(row.body, 'name') }),
  editHref,
  viewHref,
  viewLabel,
  loadSuccessHandler: loadStoreSentProject,
  /** POST /companies/{companyId}/projects is a pushable operation of the server. */
  pushable: true,
};

const editLabel: MessageDescriptor = { id: 'outbox.kind.projectEdit', defaultMessage: 'Changes to the project “{name}”' };

export const projectEditOutboxKind = {
  kind: PROJECT_EDIT_KIND,
  label: editLabel,
  labelValues: (row: OutboxRow): Record<string, string> => ({ name: stringFieldOf(row.body, 'name') }),
  editHref,
  viewHref,
  viewLabel,
  loadSuccessHandler: loadStoreSentProject,
  /** PATCH /companies/{companyId}/projects/{projectId} is a pushable operation of the server. */
  pushable: true,
};
