// The demo company's EBITDA (issue 13): the last 12 calendar months in RUB, the current one included (so every
// period preset of the dashboard has an EBITDA share), as findir@ entered them: each on the 5th of the next month,
// the current month's estimate at the seed's time. Amounts lie between 9 and 15 million roubles and depend only on the calendar month, so the same
// month reads the same whenever the seed ran.

import type { Queryable } from '../../db/database';

/** EBITDA of each calendar month (January first), whole roubles: a plant's year, slow in winter and summer holidays. */
const EBITDA_BY_MONTH_RUB = [9_400_000, 10_150_000, 11_800_000, 12_300_000, 11_650_000, 10_900_000, 9_850_000, 10_400_000, 12_750_000, 13_600_000, 14_250_000, 14_900_000] as const;

export const DEMO_EBITDA_MONTHS = 12;

const pad = (value: number) => String(value).padStart(2, '0');

/** The `DEMO_EBITDA_MONTHS` months ('YYYY-MM', UTC) up to and including the one holding `now`, oldest first. */
export function demoEbitdaMonths(now: number): string[] {
  const today = new Date(now);
  const months: string[] = [];
  for (let back = DEMO_EBITDA_MONTHS - 1; back >= 0; back--) {
    const first = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - back, 1));
    months.push(`${first.getUTCFullYear()}-${pad(first.getUTCMonth() + 1)}`);
  }
  return months;
}

/** Writes the demo EBITDA rows of the company, entered by `enteredBy` (null: nobody of the demo). */
export async function seedDemoEbitda(tx: Queryable, ctx: { companyId: string; now: number; enteredBy: string | null }): Promise<void> {
  const rows = demoEbitdaMonths(ctx.now).map((month) => {
    const monthIndex = Number(month.slice(5, 7)) - 1;
    const roubles = EBITDA_BY_MONTH_RUB[monthIndex] ?? 10_000_000;
    // Entered on the 5th of the next month at 10:00 UTC; the current month's estimate, at the seed's time.
    const entered = Math.min(ctx.now, Date.UTC(Number(month.slice(0, 4)), monthIndex + 1, 5, 10));
    return {
      company_id: ctx.companyId,
      month,
      currency: 'RUB',
      amount_minor: String(roubles * 100),
      entered_by: ctx.enteredBy,
      updated_at: new Date(entered).toISOString(),
    };
  });
  await tx.kysely.insertInto('company_ebitda').values(rows).execute();
}
