// The project calls of docs/api.md, "Projects" (issue 12). The writes (create, edit, move, complete, indicator
// report) are operations (server/operation.ts), so a push batch of the outbox runs the same code as the direct
// call; the reads are declared routes. Every member of the company passes the access check (the permission
// `company.read`: any active member); who may do what to a project is the domain's rule, checked by the service
// on the locked project (service.ts).

import { defaulted, type } from 'superstruct';
import { PROJECT_LIST_FILTERS, PROJECT_STATUSES, ProjectCompleteInput, ProjectIndicatorInput, ProjectInput, ProjectTransitionInput } from '../../../src/domain/project';
import { translate } from '../../i18n/messages';
import type { IdempotentResult } from '../../idempotency';
import { defineOperation, type Operation, type OperationCall } from '../../operation';
import { access, defineRoute, idParams, ok, queryEnum, queryId, queryLimit, queryText, type DeclaredRoute } from '../../route';
import { completeProject, createProject, listProjects, readProject, reportIndicator, transitionProject, updateProject, type ProjectOutcome } from './service';

export const DEFAULT_PROJECT_LIST_LIMIT = 50;
export const MAX_PROJECT_LIST_LIMIT = 200;

/** `{ data: project, message }`, the message in the request's language. */
function answer(outcome: ProjectOutcome, locale: OperationCall<unknown>['locale']): IdempotentResult {
  return { status: outcome.status, body: { data: outcome.project, message: translate(locale, outcome.message) } };
}

/** Creating a project, directly or from an approved proposal (`suggestionId`). */
export const createProjectOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/projects',
  permission: 'project.act',
  input: ProjectInput,
  run: async (tx, { user, member, input, locale, once, now }) => answer(await createProject(tx, member, user, input, { now, once }), locale),
});

/** Editing a project: every field while NEW or FOR_REVISION, the payments alone while CALCULATED or APPROVED. */
export const updateProjectOperation = defineOperation({
  method: 'PATCH',
  path: '/companies/:companyId/projects/:projectId',
  permission: 'project.act',
  input: ProjectInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await updateProject(tx, member, user, params.projectId ?? '', input, now), locale),
});

/** A move along PROJECT_TRANSITIONS (send for calculation, calculate, approve, return, complete). */
export const transitionProjectOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/projects/:projectId/transitions',
  permission: 'project.act',
  input: ProjectTransitionInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await transitionProject(tx, member, user, params.projectId ?? '', input, now), locale),
});

/** The project manager's APPROVED -> COMPLETED, with the actual completion date and 12-month effect. */
export const completeProjectOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/projects/:projectId/complete',
  permission: 'project.act',
  input: ProjectCompleteInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await completeProject(tx, member, user, params.projectId ?? '', input, now), locale),
});

/** An indicator report, by the project manager or the head of the project's department. */
export const reportIndicatorOperation = defineOperation({
  method: 'POST',
  path: '/companies/:companyId/projects/:projectId/indicators',
  permission: 'project.act',
  input: ProjectIndicatorInput,
  run: async (tx, { user, member, params, input, locale, now }) => answer(await reportIndicator(tx, member, user, params.projectId ?? '', input, now), locale),
});

/** The writes of this feature the outbox may push in a batch (app.ts lists them in PUSHABLE_OPERATIONS). */
export const PROJECT_OPERATIONS: readonly Operation[] = [
  createProjectOperation,
  updateProjectOperation,
  transitionProjectOperation,
  completeProjectOperation,
  reportIndicatorOperation,
];

const ProjectListQuery = type({
  filter: defaulted(queryEnum(PROJECT_LIST_FILTERS), 'all'),
  status: queryEnum(PROJECT_STATUSES),
  goalId: queryId,
  cursor: queryText(1000),
  limit: queryLimit(DEFAULT_PROJECT_LIST_LIMIT, MAX_PROJECT_LIST_LIMIT),
});

export const projectRoutes: readonly DeclaredRoute[] = [
  ...PROJECT_OPERATIONS.map((operation) => operation.route),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/projects',
    access: access.company('company.read'),
    params: idParams('companyId'),
    query: ProjectListQuery,
    handler: async ({ db, member, query: { filter, status, goalId, cursor, limit } }) => ok(await listProjects(db, member, { filter: filter ?? 'all', status, goalId, cursor, limit })),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/projects/:projectId',
    access: access.company('company.read'),
    params: idParams('companyId', 'projectId'),
    handler: async ({ db, member, params }) => ok(await readProject(db, member, params.projectId)),
  }),
];
