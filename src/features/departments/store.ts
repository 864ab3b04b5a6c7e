// Writes of the departments screen (docs/api.md, "Departments"): online-only calls to the main-service; each
// user submission keeps one Idempotency-Key until it succeeds (src/lib/submission-key.ts), so a retry after
// no answer cannot create a second department. What it stores and why: the DepartmentRow the server answers is put into the
// device's mirror at once (tagged with the signed-in user), and a deleted department is removed from it, so
// the list and the structure change without waiting for the next pull, which brings the rest. Answers are
// checked with their struct before anything is stored.
import { type } from 'superstruct';
import type { DepartmentInput, DepartmentPatch } from '../../domain/company';
import { DepartmentRow } from '../../domain/suggestion';
import type { AppDatabase } from '../../lib/db/database';
import type { HttpClient } from '../../lib/http';
import { UnexpectedAnswerError } from '../../lib/request-errors';
import { idempotencyHeaders, submitOnce, type SubmissionKeys } from '../../lib/submission-key';

export interface DepartmentsContext {
  db: AppDatabase;
  http: Pick<HttpClient, 'post' | 'patch' | 'delete'>;
  ownerUserId: string;
  /** The submissions' keys; the app's by default. */
  keys?: SubmissionKeys;
}

const DepartmentAnswer = type({ data: DepartmentRow });

const departmentsPath = (companyId: string) => `/api/v1/companies/${encodeURIComponent(companyId)}/departments`;

async function storeDepartment(context: DepartmentsContext, answer: unknown): Promise<DepartmentRow> {
  if (!DepartmentAnswer.is(answer)) throw new UnexpectedAnswerError('a department');
  await context.db.departments.put({ ...answer.data, ownerUserId: context.ownerUserId });
  return answer.data;
}

/** `POST /companies/{companyId}/departments`. */
export function createDepartment(context: DepartmentsContext, companyId: string, input: DepartmentInput): Promise<DepartmentRow> {
  const path = departmentsPath(companyId);
  return submitOnce(
    { method: 'POST', path, body: input },
    async (key) => storeDepartment(context, await context.http.post(path, input, idempotencyHeaders(key))),
    context.keys,
  );
}

/** `PATCH /companies/{companyId}/departments/{departmentId}`: a new name and/or head. */
export function updateDepartment(context: DepartmentsContext, companyId: string, departmentId: string, patch: DepartmentPatch): Promise<DepartmentRow> {
  const path = `${departmentsPath(companyId)}/${encodeURIComponent(departmentId)}`;
  return submitOnce(
    { method: 'PATCH', path, body: patch },
    async (key) => storeDepartment(context, await context.http.patch(path, patch, idempotencyHeaders(key))),
    context.keys,
  );
}

/** `DELETE /companies/{companyId}/departments/{departmentId}`; the server refuses (409) while it has people or open proposals. */
export function deleteDepartment(context: DepartmentsContext, companyId: string, departmentId: string): Promise<void> {
  const path = `${departmentsPath(companyId)}/${encodeURIComponent(departmentId)}`;
  return submitOnce(
    { method: 'DELETE', path },
    async (key) => {
      await context.http.delete(path, idempotencyHeaders(key));
      await context.db.departments.delete([context.ownerUserId, departmentId]);
    },
    context.keys,
  );
}
