// Writes of the departments screen (docs/api.md, "Departments"): online-only calls to the main-service, each
// with its own Idempotency-Key. What it stores and why: the DepartmentRow the server answers is put into the
// device's mirror at once (tagged with the signed-in user), and a deleted department is removed from it, so
// the list and the structure change without waiting for the next pull, which brings the rest. Answers are
// checked with their struct before anything is stored.
import { type } from 'superstruct';
import type { DepartmentInput, DepartmentPatch } from '../../domain/company';
import { DepartmentRow } from '../../domain/suggestion';
import type { AppDatabase } from '../../lib/db/database';
import type { HttpClient } from '../../lib/http';
import { UnexpectedAnswerError } from '../../lib/request-errors';

export interface DepartmentsContext {
  db: AppDatabase;
  http: Pick<HttpClient, 'post' | 'patch' | 'delete'>;
  ownerUserId: string;
}

const DepartmentAnswer = type({ data: DepartmentRow });

const departmentsPath = (companyId: string) => `/api/v1/companies/${encodeURIComponent(companyId)}/departments`;
const idempotent = () => ({ headers: { 'Idempotency-Key': crypto.randomUUID() } });


async function storeDepartment(context: DepartmentsContext, answer: unknown): Promise<DepartmentRow> {
  if (!DepartmentAnswer.is(answer)) throw new UnexpectedAnswerError('a department');
  await context.db.departments.put({ ...answer.data, ownerUserId: context.ownerUserId });
  return answer.data;
}

/** `POST /companies/{companyId}/departments`. */
export async function createDepartment(context: DepartmentsContext, companyId: string, input: DepartmentInput): Promise<DepartmentRow> {
  return storeDepartment(context, await context.http.post(departmentsPath(companyId), input, idempotent()));
}

/** `PATCH /companies/{companyId}/departments/{departmentId}`: a new name and/or head. */
export async function updateDepartment(context: DepartmentsContext, companyId: string, departmentId: string, patch: DepartmentPatch): Promise<DepartmentRow> {
  return storeDepartment(context, await context.http.patch(`${departmentsPath(companyId)}/${encodeURIComponent(departmentId)}`, patch, idempotent()));
}

/** `DELETE /companies/{companyId}/departments/{departmentId}`; the server refuses (409) while it has people or open proposals. */
export async function deleteDepartment(context: DepartmentsContext, companyId: string, departmentId: string): Promise<void> {
  await context.http.delete(`${departmentsPath(companyId)}/${encodeURIComponent(departmentId)}`, idempotent());
  await context.db.departments.delete([context.ownerUserId, departmentId]);
}
