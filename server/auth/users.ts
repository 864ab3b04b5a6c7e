// The users table as the rest of the service sees it, and the mapping to spec section 3's
// "Current user" (src/domain/user.ts), the only shape in which a user leaves the server.

import type { Selectable } from 'kysely';
import type { Locale } from '../../src/domain/auth';
import { isUuid } from '../../src/domain/suggestion';
import type { CurrentUser } from '../../src/domain/user';
import type { Queryable } from '../db/database';
import type { DB } from '../db/kysely';

type UserRecord = Selectable<DB['users']>;

/** A row of `users` (server/db/schema.ts), its language narrowed to the two the column's CHECK admits. */
export type UserRow = Omit<UserRecord, 'locale'> & { locale: Locale };

/** The row as the service uses it: the CHECK (locale IN ('ru', 'en')) makes anything but 'en' Russian. */
export function toUserRow(row: UserRecord): UserRow {
  return { ...row, locale: row.locale === 'en' ? 'en' : 'ru' };
}

/** The user of an id; a malformed id names nobody (null, not a cast error). */
export async function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const row = await db.kysely.selectFrom('users').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
  return row ? toUserRow(row) : null;
}

/** The user of an e-mail in any letter case (lower(email) is the expression of the unique index users_email_key). */
export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const row = await db.kysely
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', eb.fn('lower', [eb.val(email)])))
    .executeTakeFirst();
  return row ? toUserRow(row) : null;
}

/** The authority a role grants (`ROLE_<ROLE>`), as spec section 3 lists them. */
export function authorityOf(role: string): string {
  return `ROLE_${role}`;
}

export function fullNameOf(user: Pick<UserRow, 'first_name' | 'last_name' | 'middle_name'>): string {
  return [user.last_name, user.first_name, user.middle_name].filter(Boolean).join(' ');
}

/** How a mail greets the user: "Иван Петрович" in the Russian manner, the first name otherwise. */
export function greetingNameOf(user: Pick<UserRow, 'first_name' | 'middle_name' | 'locale'>): string {
  return user.locale === 'ru' && user.middle_name ? `${user.first_name} ${user.middle_name}` : user.first_name;
}

export function toCurrentUser(user: UserRow): CurrentUser {
  const emailVerified = user.email_verified_at !== null;
  return {
    id: user.id,
    email: user.email,
    telephone: user.phone,
    hrInviterData: null,
    department: null,
    company: user.registration_company ? { name: user.registration_company, inn: user.registration_inn } : null,
    fullName: fullNameOf(user),
    firstName: user.first_name,
    lastName: user.last_name,
    middleName: user.middle_name,
    position: user.position,
    otherPosition: user.other_position,
    mainGoal: user.main_goal,
    role: user.role,
    email_verified_at: user.email_verified_at ? user.email_verified_at.toISOString() : null,
    active: user.active,
    username: user.email,
    authorities: user.authorities.map((authority) => ({ authority })),
    emailVerified,
    accountNonExpired: true,
    accountNonLocked: user.active,
    credentialsNonExpired: true,
    enabled: user.active,
    locale: user.locale,
    notificationMail: user.notification_mail === 'digest' ? 'digest' : 'instant',
  };
}
