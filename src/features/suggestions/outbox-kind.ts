// The proposals' outbox kind, declared once for the app's registry (src/app/outbox-kinds.ts): what the
// Unsent screen calls a queued proposal, where the user edits a refused one, how the server's answer is
// stored, and that the server's push takes it (queued proposals go in batches). No React here: the service
// worker imports this module through the registry.
import type { MessageDescriptor } from 'react-intl';
import { paths } from '../../domain/paths';
import type { OutboxRow } from '../../lib/db/database';
import { SUGGESTION_CREATE_KIND, storeCreatedSuggestion } from './store';

/** The company of a queued proposal, read from its path ('/api/v1/companies/{companyId}/suggestions'). */
function companyOf(row: OutboxRow): string | null {
  const match = /^\/api\/v1\/companies\/([^/]+)\/suggestions$/.exec(row.path);
  if (!match?.[1]) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    // A path this app never writes: then there is no form to edit it in.
    return null;
  }
}

/** The title the user typed; the body is stored data, so it is checked, not trusted. */
function titleOf(row: OutboxRow): string {
  const body: unknown = row.body;
  if (typeof body !== 'object' || body === null) return '';
  const title: unknown = (body as Record<string, unknown>).title;
  return typeof title === 'string' ? title : '';
}

const label: MessageDescriptor = { id: 'outbox.kind.suggestionCreate', defaultMessage: 'Proposal “{title}”' };

export const suggestionCreateOutboxKind = {
  kind: SUGGESTION_CREATE_KIND,
  label,
  labelValues: (row: OutboxRow): Record<string, string> => ({ title: titleOf(row) }),
  /** The proposal form, filled from the row (`?resend=<outbox id>`), which revises it under a new key. */
  editHref: (row: OutboxRow): string | null => {
    const companyId = companyOf(row);
    return companyId === null ? null : `${paths.company.suggestionsCreate(encodeURIComponent(companyId))}?resend=${encodeURIComponent(row.id)}`;
  },
  onSuccess: storeCreatedSuggestion,
  /** POST /companies/{companyId}/suggestions is a pushable operation of the server (submitSuggestionOperation). */
  pushable: true,
};
