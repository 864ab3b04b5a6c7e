// Invitations to join a company (docs/api.md, "Invitations"). What it guarantees:
// - the link's token is 256 random bits; only its SHA-256 is stored, so the database cannot sign anyone in;
//   a resend replaces it (the old link dies), and a link works once: accepting, revoking or expiry end it;
// - an inviter may only invite to roles they may grant (`canGrantRoles`), and may only resend or revoke such
//   invitations;
// - accepting is one transaction: the account (new, e-mail verified by the link) or the signed-in one, the
//   membership with the invitation's roles, the employee row linked with the same roles and no longer
//   "invited", the invitation ACCEPTED. The invitation row is locked first, so two accepts of one link
//   cannot both succeed.
// - the mail is rendered here and handed back to the route, which sends it after the commit.

import { createHash, randomBytes } from 'node:crypto';
import { INVITATION_TTL_DAYS, type Invitation, type InvitationInput, type InvitationPreview, type InvitationStatus } from '../../../src/domain/company';
import type { Locale } from '../../../src/domain/auth';
import { paths } from '../../../src/domain/paths';
import { canGrantRoles } from '../../../src/domain/permissions';
import { isUuid } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import type { OutgoingMail } from '../../mail/mailer';
import { renderInvitationMail } from '../../mail/templates';
import { authorityOf, findUserByEmail, fullNameOf, greetingNameOf, type UserRow } from '../../auth/users';
import type { Membership } from '../../auth/access';
import { mapEmployeeWriteError, readEmployeeRow, requireContactsFree, requireDepartmentOf, type EmployeeDbRow } from '../employees/service';

const TTL_MS = INVITATION_TTL_DAYS * 24 * 3600 * 1000;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

interface InvitationDbRow {
  company_id: string;
  id: string;
  employee_id: string;
  email: string;
  roles: string[];
  status: InvitationStatus;
  invited_by: string | null;
  expires_at: Date | string;
  sent_count: number;
  last_sent_at: Date | string;
  accepted_by: string | null;
  accepted_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  e_last_name: string;
  e_first_name: string;
  e_middle_name: string | null;
  u_last_name: string | null;
  u_first_name: string | null;
  u_middle_name: string | null;
}

const INVITATION_SELECT = `SELECT i.*, e.last_name AS e_last_name, e.first_name AS e_first_name, e.middle_name AS e_middle_name,
       u.last_name AS u_last_name, u.first_name AS u_first_name, u.middle_name AS u_middle_name
  FROM invitations i
  JOIN employees e ON e.company_id = i.company_id AND e.id = i.employee_id
  LEFT JOIN users u ON u.id = i.invited_by`;

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

function toInvitation(row: InvitationDbRow): Invitation {
  return {
    id: row.id,
    companyId: row.company_id,
    employeeId: row.employee_id,
    email: row.email,
    roles: row.roles,
    status: row.status,
    fullName: fullNameOf({ last_name: row.e_last_name, first_name: row.e_first_name, middle_name: row.e_middle_name }),
    invitedByName:
      row.u_last_name !== null && row.u_first_name !== null ? fullNameOf({ last_name: row.u_last_name, first_name: row.u_first_name, middle_name: row.u_middle_name }) : null,
    expiresAt: iso(row.expires_at),
    sentCount: row.sent_count,
    lastSentAt: iso(row.last_sent_at),
    acceptedAt: row.accepted_at === null ? null : iso(row.accepted_at),
    createdAt: iso(row.created_at),
  };
}

async function readInvitation(db: Queryable, companyId: string, id: string): Promise<Invitation> {
  const row = await db.one<InvitationDbRow>(`${INVITATION_SELECT} WHERE i.company_id = $1 AND i.id = $2`, [companyId, id]);
  if (!row) throw new AppError('notFound', 404);
  return toInvitation(row);
}

export async function listInvitations(db: Queryable, companyId: string, status: InvitationStatus): Promise<Invitation[]> {
  const rows = await db.query<InvitationDbRow>(`${INVITATION_SELECT} WHERE i.company_id = $1 AND i.status = $2 ORDER BY i.created_at DESC, i.id DESC`, [companyId, status]);
  return rows.map(toInvitation);
}

/** What the route needs to send the mail once the transaction has committed. */
export interface InvitationOutcome {
  invitation: Invitation;
  mail: OutgoingMail;
}

async function buildMail(
  db: Queryable,
  input: { appUrl: string; companyId: string; email: string; roles: readonly string[]; token: string; inviter: UserRow; requestLocale: Locale; employee: EmployeeDbRow },
): Promise<OutgoingMail> {
  const account = await findUserByEmail(db, input.email);
  const locale = account?.locale ?? input.requestLocale;
  const company = await db.one<{ name: string }>('SELECT name FROM companies WHERE id = $1', [input.companyId]);
  const name = account ? greetingNameOf(account) : greetingNameOf({ first_name: input.employee.first_name, middle_name: input.employee.middle_name, locale });
  const link = `${input.appUrl}${paths.auth.invitation}?token=${input.token}`;
  const mail = renderInvitationMail(locale, {
    name,
    link,
    company: company?.name ?? '',
    inviter: fullNameOf(input.inviter),
    roles: input.roles.map((r) => translate(locale, `enum.role.${r}`)).join(', '),
    roleCount: input.roles.length,
    days: INVITATION_TTL_DAYS,
  });
  return { to: input.email, ...mail, link, kind: 'invitation' };
}

function requireGrant(member: Membership, roles: readonly string[]): void {
  if (!canGrantRoles(member.roles, roles)) throw new AppError('forbidden', 403);
}

const PERSON_FIELDS = ['lastName', 'firstName', 'middleName', 'position', 'departmentId'] as const;

export async function createInvitation(
  tx: Queryable,
  member: Membership,
  inviter: UserRow,
  input: InvitationInput,
  context: { appUrl: string; locale: Locale },
): Promise<InvitationOutcome> {
  requireGrant(member, input.roles);
  const companyId = member.companyId;
  const email = input.email;

  let employee: EmployeeDbRow | null = null;
  if (input.employeeId) {
    // An existing employee brings their own names and department: the person fields belong to a new person.
    const extra = PERSON_FIELDS.filter((f) => input[f] !== undefined);
    if (extra.length > 0) throw new AppError('validation', 400, { fieldErrors: Object.fromEntries(extra.map((f) => [f, 'unknown'])) });
    employee = await readEmployeeRow(tx, companyId, input.employeeId, true);
    if (!employee) throw new AppError('validation', 400, { fieldErrors: { employeeId: 'invalid' } });
    if (employee.user_id !== null) throw new AppError('alreadyMember', 409);
  } else {
    const missing: Record<string, string> = {};
    if (!input.lastName) missing.lastName = 'required';
    if (!input.firstName) missing.firstName = 'required';
    if (Object.keys(missing).length > 0) throw new AppError('validation', 400, { fieldErrors: missing });
    await requireDepartmentOf(tx, companyId, input.departmentId);
  }

  const joined = await tx.one(
    `SELECT 1 FROM users u
      WHERE lower(u.email) = lower($2)
        AND (EXISTS (SELECT 1 FROM company_members m WHERE m.company_id = $1 AND m.user_id = u.id)
             OR EXISTS (SELECT 1 FROM employees e WHERE e.company_id = $1 AND e.user_id = u.id))`,
    [companyId, email],
  );
  if (joined) throw new AppError('alreadyMember', 409);
  const pending = await tx.one(`SELECT 1 FROM invitations WHERE company_id = $1 AND status = 'PENDING' AND (lower(email) = lower($2) OR employee_id::text = $3)`, [
    companyId,
    email,
    employee?.id ?? '',
  ]);
  if (pending) throw new AppError('invitationPending', 409);
  await requireContactsFree(tx, companyId, { email, serviceNumber: null }, employee?.id ?? null);

  try {
    if (employee) {
      employee = await tx.one<EmployeeDbRow>('UPDATE employees SET email = $3, invited_at = now(), updated_at = now() WHERE company_id = $1 AND id = $2 RETURNING *', [
        companyId,
        employee.id,
        email,
      ]);
    } else {
      employee = await tx.one<EmployeeDbRow>(
        `INSERT INTO employees (company_id, last_name, first_name, middle_name, position, email, department_id, invited_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING *`,
        [companyId, input.lastName ?? '', input.firstName ?? '', input.middleName || null, input.position || null, email, input.departmentId?.toLowerCase() ?? null],
      );
    }
  } catch (error) {
    throw mapEmployeeWriteError(error);
  }
  if (!employee) throw new Error('employee write returned no row');

  const { token, hash } = newToken();
  let id: string;
  try {
    const row = await tx.one<{ id: string }>(
      `INSERT INTO invitations (company_id, employee_id, email, roles, token_hash, invited_by, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [companyId, employee.id, email, input.roles, hash, inviter.id, new Date(Date.now() + TTL_MS)],
    );
    if (!row) throw new Error('invitation insert returned no row');
    id = row.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('invitationPending', 409);
    throw error;
  }
  const mail = await buildMail(tx, { appUrl: context.appUrl, companyId, email, roles: input.roles, token, inviter, requestLocale: context.locale, employee });
  return { invitation: await readInvitation(tx, companyId, id), mail };
}

async function lockInvitation(tx: Queryable, member: Membership, invitationId: string): Promise<InvitationDbRow> {
  const row = isUuid(invitationId)
    ? await tx.one<InvitationDbRow>(`${INVITATION_SELECT} WHERE i.company_id = $1 AND i.id = $2 FOR UPDATE OF i`, [member.companyId, invitationId.toLowerCase()])
    : null;
  if (!row) throw new AppError('notFound', 404);
  requireGrant(member, row.roles);
  if (row.status !== 'PENDING') throw new AppError('invitationState', 409);
  return row;
}

/** A new link for a pending invitation: the old one stops working, the expiry starts again. */
export async function resendInvitation(
  tx: Queryable,
  member: Membership,
  inviter: UserRow,
  invitationId: string,
  context: { appUrl: string; locale: Locale },
): Promise<InvitationOutcome> {
  const row = await lockInvitation(tx, member, invitationId);
  const { token, hash } = newToken();
  await tx.query(
    `UPDATE invitations SET token_hash = $3, sent_count = sent_count + 1, last_sent_at = now(), expires_at = $4, updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [member.companyId, row.id, hash, new Date(Date.now() + TTL_MS)],
  );
  const employee = await tx.one<EmployeeDbRow>('UPDATE employees SET invited_at = now(), updated_at = now() WHERE company_id = $1 AND id = $2 RETURNING *', [
    member.companyId,
    row.employee_id,
  ]);
  if (!employee) throw new AppError('notFound', 404);
  const mail = await buildMail(tx, { appUrl: context.appUrl, companyId: member.companyId, email: row.email, roles: row.roles, token, inviter, requestLocale: context.locale, employee });
  return { invitation: await readInvitation(tx, member.companyId, row.id), mail };
}

/** Revokes a pending invitation: its link stops working and the employee is no longer "invited". */
export async function revokeInvitation(tx: Queryable, member: Membership, invitationId: string): Promise<void> {
  const row = await lockInvitation(tx, member, invitationId);
  await tx.query(`UPDATE invitations SET status = 'REVOKED', updated_at = now() WHERE company_id = $1 AND id = $2`, [member.companyId, row.id]);
  await tx.query('UPDATE employees SET invited_at = NULL, updated_at = now() WHERE company_id = $1 AND id = $2', [member.companyId, row.employee_id]);
}

// ---------------------------------------------------------------------------------------------- by link

interface LinkRow {
  company_id: string;
  id: string;
  employee_id: string;
  email: string;
  roles: string[];
  expires_at: Date | string;
  company_name: string;
  company_inn: string | null;
  last_name: string;
  first_name: string;
  middle_name: string | null;
}

/** The pending, unexpired invitation of a link (locked when `forUpdate`), or 404 `invitationInvalid`. */
async function invitationOfLink(db: Queryable, token: string, forUpdate: boolean): Promise<LinkRow> {
  const row = await db.one<LinkRow>(
    `SELECT i.company_id, i.id, i.employee_id, i.email, i.roles, i.expires_at, c.name AS company_name, c.inn AS company_inn,
            e.last_name, e.first_name, e.middle_name
       FROM invitations i
       JOIN companies c ON c.id = i.company_id
       JOIN employees e ON e.company_id = i.company_id AND e.id = i.employee_id
      WHERE i.token_hash = $1 AND i.status = 'PENDING' AND i.expires_at > now()${forUpdate ? ' FOR UPDATE OF i' : ''}`,
    [hashInvitationToken(token)],
  );
  if (!row) throw new AppError('invitationInvalid', 404);
  return row;
}

export async function previewInvitation(db: Queryable, token: string): Promise<InvitationPreview> {
  const row = await invitationOfLink(db, token, false);
  const account = await findUserByEmail(db, row.email);
  return {
    companyName: row.company_name,
    email: row.email,
    roles: row.roles,
    fullName: fullNameOf(row),
    hasAccount: account !== null,
    expiresAt: iso(row.expires_at),
  };
}

/**
 * Whether the link is usable and its address has an account, for the route to pick the way of accepting;
 * null for a link that does not work (the accept itself answers 404 then, or replays a stored answer).
 */
export async function peekLink(db: Queryable, token: string): Promise<{ email: string; hasAccount: boolean } | null> {
  let row: LinkRow;
  try {
    row = await invitationOfLink(db, token, false);
  } catch (error) {
    if (error instanceof AppError && error.code === 'invitationInvalid') return null;
    throw error;
  }
  return { email: row.email, hasAccount: (await findUserByEmail(db, row.email)) !== null };
}

export type Acceptor = { kind: 'existing'; userId: string } | { kind: 'new'; passwordHash: string; locale: Locale };

/**
 * Accepts the invitation of `token` for the signed-in account, or for a new account made now. Answers the
 * company and the user who joined.
 */
export async function acceptInvitation(tx: Queryable, token: string, acceptor: Acceptor): Promise<{ companyId: string; companyName: string; userId: string }> {
  const link = await invitationOfLink(tx, token, true);
  let userId: string;
  if (acceptor.kind === 'existing') {
    const account = await findUserByEmail(tx, link.email);
    if (!account) throw new AppError('invitationInvalid', 404);
    if (account.id !== acceptor.userId) throw new AppError('invitationOtherAccount', 403);
    userId = account.id;
  } else {
    const role = link.roles[0] ?? 'EMPLOYEE';
    let created: { id: string } | null;
    try {
      created = await tx.one<{ id: string }>(
        `INSERT INTO users (email, password_hash, first_name, last_name, middle_name, registration_company, registration_inn, role, authorities, locale, email_verified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now()) RETURNING id`,
        [link.email, acceptor.passwordHash, link.first_name, link.last_name, link.middle_name, link.company_name, link.company_inn, role, [authorityOf(role)], acceptor.locale],
      );
    } catch (error) {
      // An account with this address appeared since the link was opened: it must sign in and accept.
      if (isUniqueViolation(error)) throw new AppError('unauthorized', 401);
      throw error;
    }
    if (!created) throw new Error('user insert returned no row');
    userId = created.id;
  }

  const linked = await tx.one<{ id: string }>('SELECT id FROM employees WHERE company_id = $1 AND user_id = $2 AND id <> $3', [link.company_id, userId, link.employee_id]);
  if (linked) throw new AppError('alreadyMember', 409);
  await tx.query(
    `INSERT INTO company_members (company_id, user_id, roles, active) VALUES ($1, $2, $3, true)
     ON CONFLICT (company_id, user_id) DO UPDATE SET roles = EXCLUDED.roles, active = true, updated_at = now()`,
    [link.company_id, userId, link.roles],
  );
  await tx.query(
    `UPDATE employees SET user_id = $3, roles = $4, active = true, invited_at = NULL, email = COALESCE(email, $5), updated_at = now()
      WHERE company_id = $1 AND id = $2`,
    [link.company_id, link.employee_id, userId, link.roles, link.email],
  );
  await tx.query(`UPDATE invitations SET status = 'ACCEPTED', accepted_by = $3, accepted_at = now(), updated_at = now() WHERE company_id = $1 AND id = $2`, [
    link.company_id,
    link.id,
    userId,
  ]);
  return { companyId: link.company_id, companyName: link.company_name, userId };
}
