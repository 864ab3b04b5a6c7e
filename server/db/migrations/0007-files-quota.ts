// Unattached uploads (no company yet): the quota counts them per user on every upload and the hourly job
// removes those older than a day (server/features/files/unattached.ts). A partial index holds only them, so
// both stay cheap however many attached images the files table keeps.

import type { Migration } from './migration';

export const migration: Migration = {
  id: '0007_files_quota',
  statements: [`CREATE INDEX files_unattached_idx ON files (owner_id, created_at) WHERE company_id IS NULL`],
};
