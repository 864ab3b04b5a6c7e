// The schema, as an ordered list of migrations, one file each (0001-auth.ts, ...). A new migration is a new
// file with the next number, added at the end of this list; published ones are never edited.

import type { Migration } from './migration';
import { migration as auth } from './0001-auth';
import { migration as files } from './0002-files';
import { migration as companiesSuggestionsSync } from './0003-companies-suggestions-sync';
import { migration as companiesPeople } from './0004-companies-people';
import { migration as rateEvents } from './0005-rate-events';
import { migration as jobsMail } from './0006-jobs-mail';
import { migration as filesQuota } from './0007-files-quota';
import { migration as listIndexes } from './0008-list-indexes';
import { migration as signInThrottle } from './0009-sign-in-throttle';
import { migration as suggestionReview } from './0010-suggestion-review';
import { migration as goalsProjects } from './0011-goals-projects';
import { migration as projectReportReminders } from './0012-project-report-reminders';
import { migration as registriesDashboard } from './0013-registries-dashboard';
import { migration as dashboardIndexes } from './0014-dashboard-indexes';
import { migration as companyTimeZone } from './0015-company-time-zone';

export type { Migration };

export const MIGRATIONS: readonly Migration[] = [
  auth,
  files,
  companiesSuggestionsSync,
  companiesPeople,
  rateEvents,
  jobsMail,
  filesQuota,
  listIndexes,
  signInThrottle,
  suggestionReview,
  goalsProjects,
  projectReportReminders,
  registriesDashboard,
  dashboardIndexes,
  companyTimeZone,
];
