// EBITDA per month and currency (docs/api.md, "Dashboard"): the financial director enters it, the dashboard divides
// the period's expected effect by the EBITDA of the period's months.
//
// What it guarantees:
// - Reading (`GET /companies/{companyId}/ebitda?from=YYYY-MM&to=YYYY-MM`) is for the roles that see the whole
//   company's dashboard (DASHBOARD_COMPANY_ROLES; anyone else 403): EBITDA is a company-wide figure.
// - Writing (`PUT /companies/{companyId}/ebitda`, permission 'ebitda.edit') sets one month of one currency (the
//   amount may be negative), or clears it with `amountMinor: null`; the route's idempotent transaction makes a
//   replay answer what the first call answered. Who entered it last is kept.
// - Rows come ordered by month, then in CURRENCIES order; amounts are exact integers of minor units.

import { coerce, is, refine, string, type } from 'superstruct';
import { DASHBOARD_COMPANY_ROLES, Month, monthsOf, type EbitdaInput, type EbitdaRow } from '../../../src/domain/dashboard';
import { hasAnyRole } from '../../../src/domain/permissions';
import { CURRENCIES, type Currency } from '../../../src/domain/suggestion';
import type { Membership } from '../../auth/access';
import type { Queryable } from '../../db/database';
import { AppError } from '../../errors';

/** The longest list one read answers: the months a dashboard period of DASHBOARD_MAX_DAYS may touch. */
export const EBITDA_MAX_MONTHS = 62;

const queryMonth = coerce(Month, string(), (value) => value.trim());

/** Query of `GET .../ebitda`: `from` <= `to` (months, both inclusive), at most EBITDA_MAX_MONTHS of them. */
export const EbitdaQuery = refine(type({ from: queryMonth, to: queryMonth }), 'period', ({ from, to }) => {
  // superstruct runs this also when a month failed its own check: those are reported already.
  if (!is(from, Month) || !is(to, Month)) return true;
  return from <= to && monthsOf(`${from}-01`, `${to}-01`).length <= EBITDA_MAX_MONTHS ? true : { path: ['to'], key: 'to', refinement: 'period', message: 'period' };
});

interface StoredRow {
  month: string;
  currency: Currency;
  amount_minor: string;
  updated_at: Date;
}

function toEbitdaRow(row: StoredRow): EbitdaRow {
  const amountMinor = Number(row.amount_minor);
  if (!Number.isSafeInteger(amountMinor)) throw new RangeError(`an EBITDA amount beyond 2^53: ${row.amount_minor}`);
  return { month: row.month, currency: row.currency, amountMinor, updatedAt: row.updated_at.toISOString() };
}

const currencyOrder = (currency: Currency): number => CURRENCIES.indexOf(currency);

/** The company's EBITDA of the months `from`..`to`, for the roles that see the whole company (403 otherwise). */
export async function listEbitda(db: Queryable, member: Membership, from: string, to: string): Promise<EbitdaRow[]> {
  if (!hasAnyRole(member.roles, DASHBOARD_COMPANY_ROLES)) throw new AppError('forbidden', 403);
  const rows = await db.kysely
    .selectFrom('company_ebitda')
    .select(['month', 'currency', 'amount_minor', 'updated_at'])
    .where('company_id', '=', member.companyId)
    .where('month', '>=', from)
    .where('month', '<=', to)
    .$narrowType<{ currency: Currency }>()
    .execute();
  return rows
    .map(toEbitdaRow)
    .sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : currencyOrder(a.currency) - currencyOrder(b.currency)));
}

/** Sets (or, with a null amount, clears) one month of one currency; answers the row as it now stands (null: none). */
export async function saveEbitda(tx: Queryable, member: Membership, input: EbitdaInput, now: Date): Promise<EbitdaRow | null> {
  if (input.amountMinor === null) {
    await tx.kysely
      .deleteFrom('company_ebitda')
      .where('company_id', '=', member.companyId)
      .where('month', '=', input.month)
      .where('currency', '=', input.currency)
      .execute();
    return null;
  }
  const row = await tx.kysely
    .insertInto('company_ebitda')
    .values({ company_id: member.companyId, month: input.month, currency: input.currency, amount_minor: String(input.amountMinor), entered_by: member.userId, updated_at: now })
    .onConflict((conflict) =>
      conflict.columns(['company_id', 'month', 'currency']).doUpdateSet({ amount_minor: String(input.amountMinor), entered_by: member.userId, updated_at: now }),
    )
    .returning(['month', 'currency', 'amount_minor', 'updated_at'])
    .$narrowType<{ currency: Currency }>()
    .executeTakeFirstOrThrow();
  return toEbitdaRow(row);
}
