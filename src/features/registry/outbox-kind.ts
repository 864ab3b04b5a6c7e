// The registry's outbox kinds (issue 13), declared once for the app's registry (src/app/outbox-kinds.ts): what
// the Unsent screen calls a queued send of the open registry and the owner's queued approval or return, where
// the user opens the registry, how the server's answer is stored (checked with the Registry struct), and that the
// server's push takes them (they go in batches). No React here: the service worker imports this module through the
// registry. Stored rows and mirrored registries are untrusted: every value read from them is checked.
import type { MessageDescriptor } from 'react-intl';
import { paths } from '../../domain/paths';
import type { OutboxRow } from '../../lib/db/database';
import { fieldOf, rowEntityOf, type RowEntity } from '../../lib/outbox/kind-helpers';
import { REGISTRY_APPROVE_KIND, REGISTRY_RETURN_KIND, REGISTRY_SEND_KIND, UNNUMBERED } from './kind-names';

/** The store, with its handler, loads when the server has answered a registry's row. */
const loadStoreAnsweredRegistry = () => import('./store').then((store) => store.storeAnsweredRegistry);

/** The company and registry of a row: '/api/v1/companies/{c}/registry/send' (the id in the entity key) or '.../{r}/approve|return'. */
function registryOf(row: OutboxRow): RowEntity | null {
  const send = rowEntityOf(row, /^\/api\/v1\/companies\/([^/]+)\/registry\/send$/, 'registries');
  return send ?? rowEntityOf(row, /^\/api\/v1\/companies\/([^/]+)\/registry\/([^/]+)\/(?:approve|return)$/, 'registries');
}

/** The registry's number from the device's copy; '' while it is not numbered yet (or not on the device). */
function numberValues(entity: unknown): Record<string, string> {
  const number = fieldOf(entity, 'number');
  const isNumbered = typeof number === 'number' && Number.isSafeInteger(number) && number > UNNUMBERED;
  return { number: isNumbered ? String(number) : '', hasNumber: isNumbered ? 'yes' : 'no' };
}

/** The registry page: where a sent registry is listed with its state. */
function registryPageHref(row: OutboxRow): string | null {
  const registry = registryOf(row);
  return registry === null ? null : paths.company.registry(encodeURIComponent(registry.companyId));
}

/** The owner's review of the registry: where a refused decision is seen (and made anew). */
function approvePageHref(row: OutboxRow): string | null {
  const registry = registryOf(row);
  return registry === null ? null : `${paths.company.registryApprove(encodeURIComponent(registry.companyId))}?id=${encodeURIComponent(registry.entityId)}`;
}

const viewLabel: MessageDescriptor = { id: 'outbox.view.registry', defaultMessage: 'Open the registry' };

/** Sending the open registry: refused with 409 when a project went into another registry meanwhile. */
export const registrySendOutboxKind = {
  kind: REGISTRY_SEND_KIND,
  label: { id: 'outbox.kind.registrySend', defaultMessage: 'Send the registry' } satisfies MessageDescriptor,
  // Nothing to edit: a refused send is discarded (its projects go back to the open registry) and made anew.
  editHref: (): string | null => null,
  viewHref: registryPageHref,
  viewLabel,
  loadSuccessHandler: loadStoreAnsweredRegistry,
  pushable: true,
};

export const registryApproveOutboxKind = {
  kind: REGISTRY_APPROVE_KIND,
  label: {
    id: 'outbox.kind.registryApprove',
    defaultMessage: 'Approve registry{hasNumber, select, yes { No. {number}} other {}}',
  } satisfies MessageDescriptor,
  labelValues: (_row: OutboxRow, entity?: unknown): Record<string, string> => numberValues(entity),
  editHref: (): string | null => null,
  viewHref: approvePageHref,
  viewLabel,
  loadSuccessHandler: loadStoreAnsweredRegistry,
  pushable: true,
};

export const registryReturnOutboxKind = {
  kind: REGISTRY_RETURN_KIND,
  label: {
    id: 'outbox.kind.registryReturn',
    defaultMessage: 'Return registry{hasNumber, select, yes { No. {number}} other {}}',
  } satisfies MessageDescriptor,
  labelValues: (_row: OutboxRow, entity?: unknown): Record<string, string> => numberValues(entity),
  editHref: (): string | null => null,
  viewHref: approvePageHref,
  viewLabel,
  loadSuccessHandler: loadStoreAnsweredRegistry,
  pushable: true,
};

/** Each entry is an `OutboxKind` of src/app/outbox-kinds.ts (a feature does not import the shell: structural). */
export const registryOutboxKinds = [registrySendOutboxKind, registryApproveOutboxKind, registryReturnOutboxKind] as const;
