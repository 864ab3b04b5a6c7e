// The proposals' outbox kinds, declared once for the app's registry (src/app/outbox-kinds.ts): what the
// Unsent screen calls a queued proposal, a decision on one, a distribution and the author's resend, where the
// user edits a refused one or opens the proposal, how the server's answer is stored, and that the server's
// push takes them (they go in batches). No React here: the service worker imports this module through the
// registry. Stored rows and mirrored proposals are untrusted: every value read from them is checked.
import type { MessageDescriptor } from 'react-intl';
import { paths } from '../../domain/paths';
import type { OutboxRow } from '../../lib/db/database';
import { labelTextOf, rowCompanyOf, rowEntityOf, stringFieldOf, type RowEntity } from '../../lib/outbox/kind-helpers';
import { SUGGESTION_CREATE_KIND, SUGGESTION_DISTRIBUTE_KIND, SUGGESTION_REVIEW_KIND, SUGGESTION_REVISE_KIND } from './kind-names';

/** The stores, with their handlers, load when the server has answered a proposal's row. */
const loadStoreCreatedSuggestion = () => import('./store').then((store) => store.storeCreatedSuggestion);
const loadStoreReviewedSuggestion = () => import('./review-store').then((store) => store.storeReviewedSuggestion);

/** The company of a queued proposal, read from its path ('/api/v1/companies/{companyId}/suggestions'). */
function companyOf(row: OutboxRow): string | null {
  return rowCompanyOf(row, /^\/api\/v1\/companies\/([^/]+)\/suggestions$/);
}

const label: MessageDescriptor = { id: 'outbox.kind.suggestionCreate', defaultMessage: 'Proposal “{title}”' };

export const suggestionCreateOutboxKind = {
  kind: SUGGESTION_CREATE_KIND,
  label,
  labelValues: (row: OutboxRow): Record<string, string> => ({ title: stringFieldOf(row.body, 'title') }),
  /** The proposal form, filled from the row (`?resend=<outbox id>`), which revises it under a new key. */
  editHref: (row: OutboxRow): string | null => {
    const companyId = companyOf(row);
    return companyId === null ? null : `${paths.company.suggestionsCreate(encodeURIComponent(companyId))}?resend=${encodeURIComponent(row.id)}`;
  },
  loadSuccessHandler: loadStoreCreatedSuggestion,
  /** POST /companies/{companyId}/suggestions is a pushable operation of the server (submitSuggestionOperation). */
  pushable: true,
};

/** The company and proposal of a review, distribution or resend row ('/api/v1/companies/{c}/suggestions/{s}[/review|/distribute]'). */
function proposalOf(row: OutboxRow): RowEntity | null {
  return rowEntityOf(row, /^\/api\/v1\/companies\/([^/]+)\/suggestions\/([^/]+)(?:\/review|\/distribute)?$/, 'suggestions');
}

const viewLabel: MessageDescriptor = { id: 'outbox.view.suggestion', defaultMessage: 'Open the proposal' };

/** The proposal page of the row's proposal: where the user sees what became of it. */
function proposalHref(row: OutboxRow): string | null {
  const proposal = proposalOf(row);
  return proposal === null ? null : paths.company.suggestion(encodeURIComponent(proposal.companyId), encodeURIComponent(proposal.entityId));
}

/** The title, from the device's copy of the proposal (a decision's body does not carry it). */
function titleValues(entity: unknown): Record<string, string> {
  const title = stringFieldOf(entity, 'title');
  return { title, hasTitle: title === '' ? 'no' : 'yes' };
}

function commentValues(body: unknown): Record<string, string> {
  const comment = labelTextOf(stringFieldOf(body, 'comment'));
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
    decision: stringFieldOf(row.body, 'decision'),
  }),
  // Nothing to edit: a refused decision is discarded (the proposal shows the server's state again) and made anew.
  editHref: (): string | null => null,
  viewHref: proposalHref,
  viewLabel,
  loadSuccessHandler: loadStoreReviewedSuggestion,
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
  loadSuccessHandler: loadStoreReviewedSuggestion,
  pushable: true,
};

const reviseLabel: MessageDescriptor = { id: 'outbox.kind.suggestionRevise', defaultMessage: 'Clarified proposal “{title}”, sent again' };

export const suggestionReviseOutboxKind = {
  kind: SUGGESTION_REVISE_KIND,
  label: reviseLabel,
  labelValues: (row: OutboxRow): Record<string, string> => ({ title: stringFieldOf(row.body, 'title') }),
  /** The proposal form with the refused text (`?clarify=<proposal id>`), which revises this row under a new key. */
  editHref: (row: OutboxRow): string | null => {
    const proposal = proposalOf(row);
    return proposal === null
      ? null
      : `${paths.company.suggestionsCreate(encodeURIComponent(proposal.companyId))}?clarify=${encodeURIComponent(proposal.entityId)}`;
  },
  viewHref: proposalHref,
  viewLabel,
  loadSuccessHandler: loadStoreReviewedSuggestion,
  pushable: true,
};
