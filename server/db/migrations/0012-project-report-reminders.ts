// The indicator-report job's bookkeeping (server/features/projects/reports.ts): which due date of a project its
// manager was reminded of on the day itself, so every due date is reminded once however often the job runs. A
// new due date (a report filed, the project approved or completed) differs from it, and so is reminded in its turn.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0012_project_report_reminders',
  statements: [`ALTER TABLE projects ADD COLUMN report_reminded_due text CHECK (report_reminded_due ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$')`],
};
