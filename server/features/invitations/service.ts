// Invitations to join a company (docs/api.md, "Invitations"). What it guarantees:
// - the link's token is 256 random bits; only its SHA-256 is stored, so the database cannot sign anyone in;
//   a resend replaces it (the old link dies), and a link works once: accepting, revoking or expiry end it;
// - an inviter may only invite to roles they may grant (`canGrantRoles`), and may only resend or revoke such
//   invitations;
// - accepting is one transaction: the account (new, e-mail verified by the link) or the signed-in one, the
//   membership with the invitation's roles, the employee row linked with the same roles and no longer
//   "invited", the invitation ACCEPTED. The invitation row is locked first, so two accepts of one link
//   cannot both succeed.
// - the mail of a new or resent invitation is queued in the same transaction (mail/outbox.ts), after the
//   mail limits (mail/limits.ts: per invited address and per inviting user) are counted there.

import { createHash, randomBytes } from 'node:crypto';
import type { InferResult, Selectable } from 'kysely';
import { INVITATION_STATUSES, INVITATION_TTL_DAYS, type Invitation, type InvitationInput, type InvitationPreview, type InvitationStatus } from '../../../src/domain/company';
import type { Locale } from '../../../src/domain/auth';
import { paths } from '../../../src/domain/paths';
import { canGrantRoles } from '../../../src/domain/permissions';
import { isUuid } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';
import { isUniqueViolation } from '../../db/database';
import type { DB } from '../../db/kysely';
import { AppError } from '../../errors';
import { translate } from '../../i18n/messages';
import type { OutgoingMail } from '../../mail/mailer';
import { takeMailRate } from '../../mail/limits';
import { queueMail } from '../../mail/outbox';
import { renderInvitationMail } from '../../mail/templates';
import { authorityOf, findUserByEmail, fullNameOf, greetingNameOf, type UserRow } from '../../auth/users';
import type { Membership } from '../../auth/access';
import { mapEmployeeWriteError, readEmployeeRow, requireContactsFree, requireDepartmentOf } from '../employees/service';

const TTL_MS = INVITATION_TTL_DAYS * 24 * 3600 * 1000;

type EmployeeRecord = Selectable<DB['employees']>;

export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** An invitation with the names of its employee and of whoever sent it, as the list and the calls answer it. */
function selectInvitations(db: Queryable) {
  return db.kysely
    .selectFrom('invitations as i')
    .innerJoin('employees as e', (join) => join.onRef('e.company_id', '=', 'i.company_id').onRef('e.id', '=', 'i.employee_id'))
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .selectAll('i')
    .select([
      'e.last_name as e_last_name',
      'e.first_name as e_first_name',
      'e.middle_name as e_middle_name',
      'u.last_name as u_last_name',
      'u.first_name as u_first_name',
      'u.middle_name as u_middle_name',
    ]);
}

type InvitationRecord = InferResult<ReturnType<typeof selectInvitations>>[number];

/** The column's CHECK constraint allows only these; anything else is a broken database, not a bad request. */
function statusOf(value: string): InvitationStatus {
  const status = INVITATION_STATUSES.find((s) => s === value);
  if (status === undefined) throw new Error(`unknown invitation status ${value}`);
  return status;
}

function toInvitation(row: InvitationRecord): Invitation {
  return {
    id: row.id,
    companyId: row.company_id,
    employeeId: row.employee_id,
    email: row.email,
    roles: row.roles,
    status: statusOf(row.status),
    fullName: fullNameOf({ last_name: row.e_last_name, first_name: row.e_first_name, middle_name: row.e_middle_name }),
    invitedByName:
      row.u_last_name !== null && row.u_first_name !== null ? fullNameOf({ last_name: row.u_last_name, first_name: row.u_first_name, middle_name: row.u_middle_name }) : null,
    expiresAt: row.expires_at.toISOString(),
    sentCount: row.sent_count,
    lastSentAt: row.last_sent_at.toISOString(),
    acceptedAt: row.accepted_at === null ? null : row.accepted_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

async function readInvitation(db: Queryable, companyId: string, id: string): Promise<Invitation> {
  const row = await selectInvitations(db).where('i.company_id', '=', companyId).where('i.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('notFound', 404);
  return toInvitation(row);
}

export async function listInvitations(db: Queryable, companyId: string, status: InvitationStatus): Promise<Invitation[]> {
  const rows = await selectInvitations(db)
    .where('i.company_id', '=', companyId)
    .where('i.status', '=', status)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute();
  return rows.map(toInvitation);
}

/** What a sending call knows besides its input; `now` is the app's clock, for the mail limits. */
export interface SendContext {
  appUrl: string;
  locale: Locale;
  now: Date;
}

async function buildMail(
  db: Queryable,
  input: {
    appUrl: string;
    companyId: string;
    email: string;
    roles: readonly string[];
    token: string;
    inviter: UserRow;
    requestLocale: Locale;
    employee: Pick<EmployeeRecord, 'first_name' | 'middle_name'>;
  },
): Promise<OutgoingMail> {
  const account = await findUserByEmail(db, input.email);
  const locale = account?.locale ?? input.requestLocale;
  const company = await db.kysely.selectFrom('companies').select('name').where('id', '=', input.companyId).executeTakeFirst();
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

/** Counts the mail limits and queues the invitation's mail, in the invitation's transaction. */
async function mailInvitation(tx: Queryable, inviter: UserRow, now: Date, mail: OutgoingMail): Promise<void> {
  await takeMailRate(tx, { recipient: mail.to, userId: inviter.id }, now);
  await queueMail(tx, mail);
}

function requireGrant(member: Membership, roles: readonly string[]): void {
  if (!canGrantRoles(member.roles, roles)) throw new AppError('forbidden', 403);
}

const PERSON_FIELDS = ['lastName', 'firstName', 'middleName', 'position', 'departmentId'] as const;

/** The invited person's employee row: the existing one given a (new) address, or a new one; both marked invited. */
async function writeInvitedEmployee(tx: Queryable, companyId: string, existing: { id: string } | null, input: InvitationInput): Promise<EmployeeRecord> {
  try {
    const row = existing
      ? await tx.kysely
          .updateTable('employees')
          .set((eb) => ({ email: input.email, invited_at: eb.fn<Date>('now'), updated_at: eb.fn<Date>('now') }))
          .where('company_id', '=', companyId)
          .where('id', '=', existing.id)
          .returningAll()
          .executeTakeFirst()
      : await tx.kysely
          .insertInto('employees')
          .values((eb) => ({
            company_id: companyId,
            last_name: input.lastName ?? '',
            first_name: input.firstName ?? '',
            middle_name: input.middleName || null,
            position: input.position || null,
            email: input.email,
            department_id: input.departmentId?.toLowerCase() ?? null,
            invited_at: eb.fn<Date>('now'),
          }))
          .returningAll()
          .executeTakeFirst();
    if (!row) throw new Error('employee write returned no row');
    return row;
  } catch (error) {
    throw mapEmployeeWriteError(error);
  }
}

export async function createInvitation(
  tx: Queryable,
  member: Membership,
  inviter: UserRow,
  input: InvitationInput,
  context: SendContext,
): Promise<Invitation> {
  requireGrant(member, input.roles);
  const companyId = member.companyId;
  const email = input.email;

  let existing: { id: string } | null = null;
  if (input.employeeId) {
    // An existing employee brings their own names and department: the person fields belong to a new person.
    const extra = PERSON_FIELDS.filter((f) => input[f] !== undefined);
    if (extra.length > 0) throw new AppError('validation', 400, { fieldErrors: Object.fromEntries(extra.map((f) => [f, 'unknown'])) });
    const employee = await readEmployeeRow(tx, companyId, input.employeeId, true);
    if (!employee) throw new AppError('validation', 400, { fieldErrors: { employeeId: 'invalid' } });
    if (employee.user_id !== null) throw new AppError('alreadyMember', 409);
    existing = { id: employee.id };
  } else {
    const missing: Record<string, string> = {};
    if (!input.lastName) missing.lastName = 'required';
    if (!input.firstName) missing.firstName = 'required';
    if (Object.keys(missing).length > 0) throw new AppError('validation', 400, { fieldErrors: missing });
    await requireDepartmentOf(tx, companyId, input.departmentId);
  }

  // lower(email) on both sides: the expression of the unique indexes users_email_key and invitations_pending_key.
  const joined = await tx.kysely
    .selectFrom('users as u')
    .select('u.id')
    .where((eb) =>
      eb.and([
        eb(eb.fn('lower', ['u.email']), '=', eb.fn('lower', [eb.val(email)])),
        eb.or([
          eb.exists(eb.selectFrom('company_members as m').select('m.user_id').where('m.company_id', '=', companyId).whereRef('m.user_id', '=', 'u.id')),
          eb.exists(eb.selectFrom('employees as e').select('e.id').where('e.company_id', '=', companyId).whereRef('e.user_id', '=', 'u.id')),
        ]),
      ]),
    )
    .executeTakeFirst();
  if (joined) throw new AppError('alreadyMember', 409);
  const pending = await tx.kysely
    .selectFrom('invitations')
    .select('id')
    .where('company_id', '=', companyId)
    .where('status', '=', 'PENDING')
    .where((eb) => {
      const sameEmail = eb(eb.fn('lower', ['email']), '=', eb.fn('lower', [eb.val(email)]));
      return existing ? eb.or([sameEmail, eb('employee_id', '=', existing.id)]) : sameEmail;
    })
    .executeTakeFirst();
  if (pending) throw new AppError('invitationPending', 409);
  await requireContactsFree(tx, companyId, { email, serviceNumber: null }, existing?.id ?? null);

  const employee = await writeInvitedEmployee(tx, companyId, existing, input);

  const { token, hash } = newToken();
  let id: string;
  try {
    const row = await tx.kysely
      .insertInto('invitations')
      .values({
        company_id: companyId,
        employee_id: employee.id,
        email,
        roles: input.roles,
        token_hash: hash,
        invited_by: inviter.id,
        expires_at: new Date(Date.now() + TTL_MS),
      })
      .returning('id')
      .executeTakeFirst();
    if (!row) throw new Error('invitation insert returned no row');
    id = row.id;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('invitationPending', 409);
    throw error;
  }
  const mail = await buildMail(tx, { appUrl: context.appUrl, companyId, email, roles: input.roles, token, inviter, requestLocale: context.locale, employee });
  await mailInvitation(tx, inviter, context.now, mail);
  return readInvitation(tx, companyId, id);
}

/** The pending invitation, locked; 404 for another company's, a missing or a malformed id. */
async function lockInvitation(tx: Queryable, member: Membership, invitationId: string): Promise<InvitationRecord> {
  const row = isUuid(invitationId)
    ? await selectInvitations(tx).where('i.company_id', '=', member.companyId).where('i.id', '=', invitationId.toLowerCase()).forUpdate('i').executeTakeFirst()
    : undefined;
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
  context: SendContext,
): Promise<Invitation> {
  const row = await lockInvitation(tx, member, invitationId);
  const { token, hash } = newToken();
  await tx.kysely
    .updateTable('invitations')
    .set((eb) => ({
      token_hash: hash,
      sent_count: eb('sent_count', '+', 1),
      last_sent_at: eb.fn<Date>('now'),
      expires_at: new Date(Date.now() + TTL_MS),
      updated_at: eb.fn<Date>('now'),
    }))
    .where('company_id', '=', member.companyId)
    .where('id', '=', row.id)
    .execute();
  const employee = await tx.kysely
    .updateTable('employees')
    .set((eb) => ({ invited_at: eb.fn<Date>('now'), updated_at: eb.fn<Date>('now') }))
    .where('company_id', '=', member.companyId)
    .where('id', '=', row.employee_id)
    .returningAll()
    .executeTakeFirst();
  if (!employee) throw new AppError('notFound', 404);
  const mail = await buildMail(tx, { appUrl: context.appUrl, companyId: member.companyId, email: row.email, roles: row.roles, token, inviter, requestLocale: context.locale, employee });
  await mailInvitation(tx, inviter, context.now, mail);
  return readInvitation(tx, member.companyId, row.id);
}

/** Revokes a pending invitation: its link stops working and the employee is no longer "invited". */
export async function revokeInvitation(tx: Queryable, member: Membership, invitationId: string): Promise<void> {
  const row = await lockInvitation(tx, member, invitationId);
  await tx.kysely
    .updateTable('invitations')
    .set((eb) => ({ status: 'REVOKED', updated_at: eb.fn<Date>('now') }))
    .where('company_id', '=', member.companyId)
    .where('id', '=', row.id)
    .execute();
  await tx.kysely
    .updateTable('employees')
    .set((eb) => ({ invited_at: null, updated_at: eb.fn<Date>('now') }))
    .where('company_id', '=', member.companyId)
    .where('id', '=', row.employee_id)
    .execute();
}

// ---------------------------------------------------------------------------------------------- by link

/** A link's invitation with what the preview and the new account need: the company and the person's names. */
function selectLink(db: Queryable) {
  return db.kysely
    .selectFrom('invitations as i')
    .innerJoin('companies as c', 'c.id', 'i.company_id')
    .innerJoin('employees as e', (join) => join.onRef('e.company_id', '=', 'i.company_id').onRef('e.id', '=', 'i.employee_id'))
    .select([
      'i.company_id',
      'i.id',
      'i.employee_id',
      'i.email',
      'i.roles',
      'i.expires_at',
      'c.name as company_name',
      'c.inn as company_inn',
      'e.last_name',
      'e.first_name',
      'e.middle_name',
    ]);
}

type LinkRecord = InferResult<ReturnType<typeof selectLink>>[number];

/** The pending, unexpired invitation of a link (locked when `forUpdate`), or 404 `invitationInvalid`. */
async function invitationOfLink(db: Queryable, token: string, forUpdate: boolean): Promise<LinkRecord> {
  let query = selectLink(db)
    .where('i.token_hash', '=', hashInvitationToken(token))
    .where('i.status', '=', 'PENDING')
    .where((eb) => eb('i.expires_at', '>', eb.fn<Date>('now')));
  if (forUpdate) query = query.forUpdate('i');
  const row = await query.executeTakeFirst();
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
    expiresAt: row.expires_at.toISOString(),
  };
}

/**
 * Whether the link is usable and its address has an account, for the route to pick the way of accepting;
 * null for a link that does not work (the accept itself answers 404 then, or replays a stored answer).
 */
export async function peekLink(db: Queryable, token: string): Promise<{ email: string; hasAccount: boolean } | null> {
  let row: LinkRecord;
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
    let created: { id: string } | undefined;
    try {
      created = await tx.kysely
        .insertInto('users')
        .values((eb) => ({
          email: link.email,
          password_hash: acceptor.passwordHash,
          first_name: link.first_name,
          last_name: link.last_name,
          middle_name: link.middle_name,
          registration_company: link.company_name,
          registration_inn: link.company_inn,
          role,
          authorities: [authorityOf(role)],
          locale: acceptor.locale,
          email_verified_at: eb.fn<Date>('now'),
        }))
        .returning('id')
        .executeTakeFirst();
    } catch (error) {
      // An account with this address appeared since the link was opened: it must sign in and accept.
      if (isUniqueViolation(error)) throw new AppError('unauthorized', 401);
      throw error;
    }
    if (!created) throw new Error('user insert returned no row');
    userId = created.id;
  }

  const linked = await tx.kysely
    .selectFrom('employees')
    .select('id')
    .where('company_id', '=', link.company_id)
    .where('user_id', '=', userId)
    .where('id', '<>', link.employee_id)
    .executeTakeFirst();
  if (linked) throw new AppError('alreadyMember', 409);
  await tx.kysely
    .insertInto('company_members')
    .values({ company_id: link.company_id, user_id: userId, roles: link.roles, active: true })
    .onConflict((oc) =>
      oc.columns(['company_id', 'user_id']).doUpdateSet((eb) => ({ roles: eb.ref('excluded.roles'), active: true, updated_at: eb.fn<Date>('now') })),
    )
    .execute();
  await tx.kysely
    .updateTable('employees')
    .set((eb) => ({
      user_id: userId,
      roles: link.roles,
      active: true,
      invited_at: null,
      email: eb.fn.coalesce('email', eb.val(link.email)),
      updated_at: eb.fn<Date>('now'),
    }))
    .where('company_id', '=', link.company_id)
    .where('id', '=', link.employee_id)
    .execute();
  await tx.kysely
    .updateTable('invitations')
    .set((eb) => ({ status: 'ACCEPTED', accepted_by: userId, accepted_at: eb.fn<Date>('now'), updated_at: eb.fn<Date>('now') }))
    .where('company_id', '=', link.company_id)
    .where('id', '=', link.id)
    .execute();
  return { companyId: link.company_id, companyName: link.company_name, userId };
}
