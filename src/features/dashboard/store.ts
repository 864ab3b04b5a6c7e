// The dashboard's one read of the server (the pending invitations, not mirrored) and its one write: inviting a leader (owner, manager, financial director) from the setup checklist
// (`POST /companies/{companyId}/invitations`). Online-only; each submission keeps one Idempotency-Key until it
// succeeds (src/lib/submission-key.ts), so a retry after no answer cannot invite twice. What it stores and
// why: the employee row the invitation created or marked (fetched right after, checked with its struct) goes
// into the device's mirror tagged with the signed-in user, so the checklist shows "invited" at once; if that
// read fails, the next pull brings the row.
import { array, type } from 'superstruct';
import { Invitation, type InvitationInput } from '../../domain/company';
import { EmployeeRow } from '../../domain/suggestion';
import type { AppDatabase } from '../../lib/db/database';
import type { HttpClient } from '../../lib/http';
import { idempotencyHeaders, submitOnce, type SubmissionKeys } from '../../lib/submission-key';

export interface InviteContext {
  db: AppDatabase;
  http: Pick<HttpClient, 'get' | 'post'>;
  ownerUserId: string;
  /** The submissions' keys; the app's by default. */
  keys?: SubmissionKeys;
}

const InvitationAnswer = type({ data: Invitation });
const EmployeeAnswer = type({ data: EmployeeRow });
const InvitationsAnswer = type({ data: array(Invitation) });

export function inviteLeader(context: InviteContext, companyId: string, input: InvitationInput): Promise<Invitation> {
  const path = `/api/v1/companies/${encodeURIComponent(companyId)}/invitations`;
  return submitOnce(
    { method: 'POST', path, body: input },
    async (key) => storeInvited(context, companyId, await context.http.post(path, input, idempotencyHeaders(key))),
    context.keys,
  );
}

/** The invited employee goes into the mirror; a failure there only waits for the pull. */
async function storeInvited(context: InviteContext, companyId: string, answer: unknown): Promise<Invitation> {
  const base = `/api/v1/companies/${encodeURIComponent(companyId)}`;
  if (!InvitationAnswer.is(answer)) throw new Error('The server answered an invitation that does not match its struct');
  const invitation = answer.data;
  try {
    const employee = await context.http.get(`${base}/employees/${encodeURIComponent(invitation.employeeId)}`, undefined, { minDuration: 0 });
    if (EmployeeAnswer.is(employee)) await context.db.employees.put({ ...employee.data, ownerUserId: context.ownerUserId });
    else console.warn('The invited employee does not match its struct; the next pull brings it');
  } catch (error) {
    console.warn('Could not load the invited employee; the next pull brings it', error);
  }
  return invitation;
}

/** `GET /companies/{companyId}/invitations`: the pending ones (people managers only). */
export async function listPendingInvitations(http: Pick<HttpClient, 'get'>, companyId: string): Promise<Invitation[]> {
  const answer = await http.get(`/api/v1/companies/${encodeURIComponent(companyId)}/invitations`, undefined, { minDuration: 0 });
  if (!InvitationsAnswer.is(answer)) throw new Error('The server answered invitations that do not match their struct');
  return answer.data;
}
