// The company's time zone (issue 14): the IANA name in which its invoice, its verification pages, its registry
// exports and the registry's conflict messages print dates and times (src/domain/time-format.ts). Every company
// made before keeps the Moscow time it was printed in until now. Which names are zones is the application's
// rule (`Intl.supportedValuesOf('timeZone')`, checked by the company calls); the column only holds its length.
// A constant default adds the column without rewriting the table or touching the change feed: devices that
// hold a company row without the field read it as Europe/Moscow, the same value.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0015_company_time_zone',
  statements: [
    `ALTER TABLE companies ADD COLUMN time_zone text NOT NULL DEFAULT 'Europe/Moscow' CONSTRAINT companies_time_zone_length CHECK (char_length(time_zone) BETWEEN 1 AND 64)`,
  ],
};
