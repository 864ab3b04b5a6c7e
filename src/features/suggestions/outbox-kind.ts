// The proposals' outbox kinds, declared once for the app's registry (src/app/outbox-kinds.ts): what the
// Unsent screen calls a queued proposal, a decision on one, a distribution and the author's resend, where the
// user edits a refused one or opens the proposal, how the server's answer is stored, and that the server's
// push takes them (they go in batches). No React here: the service worker imports this module through the
// registry. Stored rows and mirrored proposals are untrusted: every value read from them is checked.
import type { MessageDescriptor } from 'react-intl';
import { paths } from '../../domain/paths';
import type { OutboxRow } from '../../lib/db/database';
import { SUGGESTION_DISTRIBUTE_KIND, SUGGESTION_REVIEW_KIND, SUGGESTION_REVISE_KIND, storeReviewedSuggestion } from './review-store';
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

/** The company and proposal of a review, distribution or resend row ('/api/v1/companies/{c}/suggestions/{s}[/review|/distribute]'). */
function proposalOf(row: OutboxRow): { companyId: string; suggestionId: string } | null {
  const match = /^\/api\/v1\/companies\/([^/]+)\/suggestions\/([^/]+)(?:\/review|\/distribute)?$/.exec(row.path);
  if (!match?.[1] || !match[2]) return null;
  try {
    return { companyId: decodeURIComponent(match[1]), suggestionId: decodeURIComponent(match[2]) };
  } catch {
    return null;
  }
}

function stringField(value: unknown, name: string): string {
  if (typeof value !== 'object' || value === null) return '';
  const field: unknown = (value as Record<string, unknown>)[name];
  return typeof field === 'string' ? field : '';
}

/** Long comments are cut for the one-line label (the proposal page shows them whole). */
const LABEL_COMMENT_MAX = 160;
function shortened(text: string): string {
  const trimmed = text.trim().replace(/\s+/g, ' ');
  return trimmed.length > LABEL_COMMENT_MAX ? `${trimmed.slice(0, LABEL_COMMENT_MAX - 1)}…` : trimmed;
}

const viewLabel: MessageDescriptor = { id: 'outbox.view.suggestion', defaultMessage: 'Open the proposal' };

/** The proposal page of the row's proposal: where the user sees what became of it. */
function proposalHref(row: OutboxRow): string | null {
  const proposal = proposalOf(row);
  return proposal === null ? null : paths.company.suggestion(encodeURIComponent(proposal.companyId), encodeURIComponent(proposal.suggestionId));
}

/** The title, from the device's copy of the proposal (a decision's body does not carry it). */
function titleValues(entity: unknown): Record<string, string> {
  const title = stringField(entity, 'title');
  return { title, hasTitle: title === '' ? 'no' : 'yes' };
}

function commentValues(body: unknown): Record<string, string> {
  const comment = shortened(stringField(body, 'comment'));
  return { comment, hasComment: comment === '' ? 'no' : 'yes' };
}

const reviewLabel: MessageDescriptor = {
  id: 'outbox.kind.suggestionReview',
  defaultMessage:
    'Your decision on the proposal{hasTitle, select, yes { “{title}”} other {}}: {decision, select, APPROVED {approve} REJECTED {reject} CLARIFICATION {ask the author for clarification} other {decide}}{hasComment, select, yes { — {comment}} other {}}',
};

/** A decision (approve, reject, ask for clarification): refused with 409 when someone decided first. */
export const suggestionReviewOutboxKind = {
  kind: SUGGESTION_REVIEW_KIND,
  label: reviewLabel,
  labelValues: (row: OutboxRow, entity?: unknown): Record<string, string> => ({
    ...titleValues(entity),
    ...commentValues(row.body),
    decision: stringField(row.body, 'decision'),
  }),
  // Nothing to edit: a refused decision is discarded (the proposal shows the server's state again) and made anew.
  editHref: (): string | null => null,
  viewHref: proposalHref,
  viewLabel,
  onSuccess: storeReviewedSuggestion,
  pushable: true,
};

const distributeLabel: MessageDescriptor = {
  id: 'outbox.kind.suggestionDistribute',
  defaultMessage: 'Passing the proposal{hasTitle, select, yes { “{title}”} other {}} to another department{hasComment, select, yes { — {comment}} other {}}',
};

export const suggestionDistributeOutboxKind = {
  kind: SUGGESTION_DISTRIBUTE_KIND,
  label: distributeLabel,
  labelValues: (row: OutboxRow, entity?: unknown): Record<string, string> => ({ ...titleValues(entity), ...commentValues(row.body) }),
  editHref: (): string | null => null,
  viewHref: proposalHref,
  viewLabel,
  onSuccess: storeReviewedSuggestion,
  pushable: true,
};

const reviseLabel: MessageDescriptor = { id: 'outbox.kind.suggestionRevise', defaultMessage: 'Clarified proposal “{title}”, sent again' };

export const suggestionReviseOutboxKind = {
  kind: SUGGESTION_REVISE_KIND,
  label: reviseLabel,
  labelValues: (row: OutboxRow): Record<string, string> => ({ title: stringField(row.body, 'title') }),
  /** The proposal form with the refused text (`?clarify=<proposal id>`), which revises this row under a new key. */
  editHref: (row: OutboxRow): string | null => {
    const proposal = proposalOf(row);
    return proposal === null
      ? null
      : `${paths.company.suggestionsCreate(encodeURIComponent(proposal.companyId))}?clarify=${encodeURIComponent(proposal.suggestionId)}`;
  },
  viewHref: proposalHref,
  viewLabel,
  onSuccess: storeReviewedSuggestion,
  pushable: true,
};
