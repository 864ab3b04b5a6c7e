// The users table as the rest of the service sees it, and the mapping to spec section 3's
// "Current user" (src/domain/user.ts), the only shape in which a user leaves the server.

import type { Locale } from '../../src/domain/auth';
import type { CurrentUser } from '../../src/domain/user';
import type { Queryable } from '../db/database';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  middle_name: string | null;
  position: string | null;
  other_position: string | null;
  phone: string | null;
  registration_company: string | null;
  registration_inn: string | null;
  main_goal: string | null;
  role: string;
  authorities: string[];
  locale: Locale;
  email_verified_at: Date | null;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

export function findUserById(db: Queryable, id: string): Promise<UserRow | null> {
  return db.one<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
}

export function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  return db.one<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
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
  };
}
