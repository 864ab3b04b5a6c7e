// Who holds an open proposal (issue 11): whoever must decide it now. Level 0 is the head of its department;
// an overdue proposal escalates to level 1, the CEO, and then to level 2, the owner (src/domain/suggestion.ts,
// ESCALATION_LEVELS). A level nobody fills passes to the next one: a department without a head is the CEO's,
// a company without an active CEO goes to its owners. Used by the review (to tell the holder of a new or
// resent proposal) and by the deadline job (reminders and escalations).

import { sql } from 'kysely';
import type { EscalationLevel } from '../../../src/domain/suggestion';
import type { Queryable } from '../../db/database';

/** The active members of the company holding `role`. */
async function membersWithRole(db: Queryable, companyId: string, role: 'CEO' | 'OWNER'): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('company_members')
    .select('user_id')
    .where('company_id', '=', companyId)
    .where('active', '=', true)
    .where(sql<boolean>`roles @> ARRAY[${role}]::text[]`)
    .orderBy('user_id')
    .execute();
  return rows.map((row) => row.user_id);
}

/** The head of the department when they are an active member of the company; null otherwise. */
async function headOf(db: Queryable, companyId: string, departmentId: string): Promise<string | null> {
  const row = await db.kysely
    .selectFrom('departments as d')
    .innerJoin('company_members as m', (join) => join.onRef('m.company_id', '=', 'd.company_id').onRef('m.user_id', '=', 'd.head_user_id'))
    .select('d.head_user_id')
    .where('d.company_id', '=', companyId)
    .where('d.id', '=', departmentId)
    .where('m.active', '=', true)
    .executeTakeFirst();
  return row?.head_user_id ?? null;
}

export interface Holders {
  /** The level that actually holds it (a level nobody fills passes to the next). */
  level: EscalationLevel;
  userIds: string[];
}

/**
 * The people holding a proposal of `departmentId` at `level` or, when nobody fills that level, at the next
 * one that somebody fills. Empty `userIds` only when the company has no owner either.
 */
export async function holdersOf(db: Queryable, companyId: string, departmentId: string, level: EscalationLevel): Promise<Holders> {
  if (level === 0) {
    const head = await headOf(db, companyId, departmentId);
    if (head !== null) return { level: 0, userIds: [head] };
  }
  if (level <= 1) {
    const ceos = await membersWithRole(db, companyId, 'CEO');
    if (ceos.length > 0) return { level: 1, userIds: ceos };
  }
  return { level: 2, userIds: await membersWithRole(db, companyId, 'OWNER') };
}

/** The level an overdue proposal at `level` escalates to: the next one somebody fills (2 stays 2). */
export async function escalationOf(db: Queryable, companyId: string, departmentId: string, level: EscalationLevel): Promise<Holders> {
  const next: EscalationLevel = level === 0 ? 1 : 2;
  return holdersOf(db, companyId, departmentId, next);
}
