// Readers of a queued row for the features' outbox kinds (src/features/*/outbox-kind.ts): the company and entity
// a row's path names, and fields of its body or of the device's copy of the entity. A row is stored data, so
// every value is checked, not trusted; a path this app never writes reads as null (then there is nothing to
// open or edit). No React: the service worker imports the kinds through the registry.
import type { OutboxRow } from '../db/database';

/** The company and the entity of a row. */
export interface RowEntity {
  companyId: string;
  entityId: string;
}

/** The percent-decoded groups of `pattern` in the row's path; null when it does not match or does not decode. */
function pathGroups(row: Pick<OutboxRow, 'path'>, pattern: RegExp): (string | undefined)[] | null {
  const match = pattern.exec(row.path);
  if (!match) return null;
  try {
    return match.slice(1).map((group) => (group === undefined || group === '' ? undefined : decodeURIComponent(group)));
  } catch {
    // A path this app never writes.
    return null;
  }
}

/** The company of a row whose path `pattern` matches, its id in the first group. */
export function rowCompanyOf(row: Pick<OutboxRow, 'path'>, pattern: RegExp): string | null {
  return pathGroups(row, pattern)?.[0] ?? null;
}

/**
 * The company and entity of a row whose path `pattern` matches: the company's id in the first group, the
 * entity's in the second or, for a POST to the collection (no id in the path), in the row's entity key
 * (`{table}:{id}`).
 */
export function rowEntityOf(row: Pick<OutboxRow, 'path' | 'entityKey'>, pattern: RegExp, table: string): RowEntity | null {
  const groups = pathGroups(row, pattern);
  const companyId = groups?.[0];
  if (!groups || companyId === undefined) return null;
  const prefix = `${table}:`;
  const entityId = groups[1] ?? (row.entityKey.startsWith(prefix) ? row.entityKey.slice(prefix.length) : '');
  return entityId === '' ? null : { companyId, entityId };
}

/** The field `name` of an untrusted object (a row's body, the device's copy of an entity); undefined when none. */
export function fieldOf(value: unknown, name: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  return (value as Record<string, unknown>)[name];
}

/** The string field `name` of an untrusted object; '' when it is missing or not a string. */
export function stringFieldOf(value: unknown, name: string): string {
  const found = fieldOf(value, name);
  return typeof found === 'string' ? found : '';
}

/** Long texts (comments) are cut for the one-line label of the Unsent screen (the entity's page shows them whole). */
export const LABEL_TEXT_MAX = 160;

/** `text` on one line, at most LABEL_TEXT_MAX characters (an ellipsis ends a cut one). */
export function labelTextOf(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > LABEL_TEXT_MAX ? `${trimmed.slice(0, LABEL_TEXT_MAX - 1)}…` : trimmed;
}
