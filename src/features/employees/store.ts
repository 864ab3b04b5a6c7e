// Writes of the people screens (docs/api.md, "Employees" and "Invitations"). These management writes are
// online-only: they go straight to the main-service (no outbox); each user submission keeps one
// Idempotency-Key until it succeeds (src/lib/submission-key.ts), so a retry after no answer cannot create a
// second employee or invitation.
// What it stores and why: the EmployeeRow the server answers is put into the device's mirror at once,
// tagged with the signed-in user (`ownerUserId`), so the list and the employee's page show the change
// without waiting for the next pull; the pull brings everything else (and overwrites these rows with the
// same data). Answers are checked with their structs before anything is stored; an answer that does not
// check out is left to the pull and reported on the console.
import { array, type } from 'superstruct';
import { Invitation, type EmployeeInput, type EmployeePatch, type InvitationInput } from '../../domain/company';
import { EmployeeRow } from '../../domain/suggestion';
import type { AppDatabase } from '../../lib/db/database';
import type { HttpClient } from '../../lib/http';
import { UnexpectedAnswerError } from '../../lib/request-errors';
import { idempotencyHeaders, submitOnce, type SubmissionKeys } from '../../lib/submission-key';

export type PeopleHttp = Pick<HttpClient, 'get' | 'post' | 'patch' | 'delete'>;

export interface PeopleContext {
  db: AppDatabase;
  http: PeopleHttp;
  ownerUserId: string;
  /** The submissions' keys; the app's by default. */
  keys?: SubmissionKeys;
}

const EmployeeAnswer = type({ data: EmployeeRow });
const InvitationAnswer = type({ data: Invitation });
const InvitationsAnswer = type({ data: array(Invitation) });

const companyPath = (companyId: string) => `/api/v1/companies/${encodeURIComponent(companyId)}`;


async function storeEmployee(context: PeopleContext, answer: unknown): Promise<EmployeeRow> {
  if (!EmployeeAnswer.is(answer)) throw new UnexpectedAnswerError('an employee');
  await context.db.employees.put({ ...answer.data, ownerUserId: context.ownerUserId });
  return answer.data;
}

/** `POST /companies/{companyId}/employees`; the new row goes into the mirror. */
export function createEmployee(context: PeopleContext, companyId: string, input: EmployeeInput): Promise<EmployeeRow> {
  const path = `${companyPath(companyId)}/employees`;
  return submitOnce(
    { method: 'POST', path, body: input },
    async (key) => storeEmployee(context, await context.http.post(path, input, idempotencyHeaders(key))),
    context.keys,
  );
}

/** `PATCH /companies/{companyId}/employees/{employeeId}` with the changed fields only. */
export function updateEmployee(context: PeopleContext, companyId: string, employeeId: string, patch: EmployeePatch): Promise<EmployeeRow> {
  const path = `${companyPath(companyId)}/employees/${encodeURIComponent(employeeId)}`;
  return submitOnce(
    { method: 'PATCH', path, body: patch },
    async (key) => storeEmployee(context, await context.http.patch(path, patch, idempotencyHeaders(key))),
    context.keys,
  );
}

/** `GET /companies/{companyId}/employees/{employeeId}` into the mirror (after an invitation changed it). */
export async function refreshEmployee(context: PeopleContext, companyId: string, employeeId: string): Promise<EmployeeRow> {
  const answer = await context.http.get(`${companyPath(companyId)}/employees/${encodeURIComponent(employeeId)}`, undefined, { minDuration: 0 });
  return storeEmployee(context, answer);
}

/** The employee row as the invitation left it (invitedAt set): fetched and mirrored; a failure only waits for the pull. */
async function mirrorInvitedEmployee(context: PeopleContext, invitation: Invitation): Promise<void> {
  try {
    await refreshEmployee(context, invitation.companyId, invitation.employeeId);
  } catch (error) {
    console.warn('Could not reload the invited employee; the next pull brings it', error);
  }
}

/** `POST /companies/{companyId}/invitations`: invites an existing employee or a new person by e-mail. */
export function createInvitation(context: PeopleContext, companyId: string, input: InvitationInput): Promise<Invitation> {
  const path = `${companyPath(companyId)}/invitations`;
  return submitOnce(
    { method: 'POST', path, body: input },
    async (key) => {
      const answer = await context.http.post(path, input, idempotencyHeaders(key));
      if (!InvitationAnswer.is(answer)) throw new UnexpectedAnswerError('an invitation');
      await mirrorInvitedEmployee(context, answer.data);
      return answer.data;
    },
    context.keys,
  );
}

/** `GET /companies/{companyId}/invitations` (pending ones, newest first). Online only. */
export async function listInvitations(http: PeopleHttp, companyId: string): Promise<Invitation[]> {
  const answer = await http.get(`${companyPath(companyId)}/invitations`, undefined, { minDuration: 0 });
  if (!InvitationsAnswer.is(answer)) throw new UnexpectedAnswerError('a list of invitations');
  return answer.data;
}

/** `POST .../invitations/{invitationId}/resend`: a new link, the old one stops working. */
export function resendInvitation(context: PeopleContext, companyId: string, invitationId: string): Promise<Invitation> {
  const path = `${companyPath(companyId)}/invitations/${encodeURIComponent(invitationId)}/resend`;
  return submitOnce(
    { method: 'POST', path },
    async (key) => {
      const answer = await context.http.post(path, undefined, idempotencyHeaders(key));
      if (!InvitationAnswer.is(answer)) throw new UnexpectedAnswerError('an invitation');
      await mirrorInvitedEmployee(context, answer.data);
      return answer.data;
    },
    context.keys,
  );
}

/** `DELETE .../invitations/{invitationId}`: the link stops working and the employee is no longer "invited". */
export function revokeInvitation(context: PeopleContext, companyId: string, invitation: Pick<Invitation, 'id' | 'employeeId'>): Promise<void> {
  const path = `${companyPath(companyId)}/invitations/${encodeURIComponent(invitation.id)}`;
  return submitOnce(
    { method: 'DELETE', path },
    async (key) => {
      await context.http.delete(path, idempotencyHeaders(key));
      const stored = await context.db.employees.get([context.ownerUserId, invitation.employeeId]);
      if (stored && stored.companyId === companyId) await context.db.employees.put({ ...stored, invitedAt: null });
    },
    context.keys,
  );
}
