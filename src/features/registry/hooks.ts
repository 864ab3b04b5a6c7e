// What the registry screens read and do. Reads go through `useLiveQuery` over the device's mirror only (they work
// offline and follow every pull and every outbox answer); store.ts checks the stored rows with their structs.
// Writes go through store.ts (the outbox); its refusals come back as a `FormError` in the user's language. The
// exports are the one online-only call: a failure says plainly that a download needs the connection.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useMemo } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import type { RegistryApproveInput } from '../../domain/registry';
import { http } from '../../lib/api';
import { useCurrentUser } from '../../lib/app-state';
import { useConnectivity } from '../../lib/connectivity';
import { getAppDatabase } from '../../lib/db/database';
import { saveFile } from '../../lib/download';
import { HttpError } from '../../lib/http';
import { useMemberRoles } from '../../lib/member-view';
import { afterEnqueue } from '../../lib/offline';
import { StorageQuotaError } from '../../lib/outbox/outbox';
import { failureMessage } from '../../lib/request-errors';
import { useDialog } from '../../ui/dialog';
import { FormError } from '../../ui/form';
import {
  RegistryRefusedError,
  approveRegistry,
  fetchRegistryExport,
  readNextToDecide,
  readOpenRegistry,
  readRegistries,
  readRegistry,
  returnRegistry,
  sendRegistry,
  type OpenRegistry,
  type RegistryActionContext,
  type RegistryExportFormat,
  type RegistryView,
} from './store';

export { useMemberRoles };

export interface RegistryOverview {
  open: OpenRegistry;
  /** The sent registries, newest first. */
  registries: RegistryView[];
}

/** The open registry and the sent ones of the company, from the mirror; undefined while loading. */
export function useRegistryOverview(companyId: string): RegistryOverview | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const db = getAppDatabase();
    const [open, registries] = await Promise.all([readOpenRegistry(db, userId, companyId), readRegistries(db, userId, companyId)]);
    return { open, registries };
  }, [userId, companyId]);
}

/** The registry `registryId` of the company; null when it is not on the device, undefined while loading. */
export function useRegistryView(companyId: string, registryId: string | null): RegistryView | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(() => (registryId === null || registryId === '' ? Promise.resolve(null) : readRegistry(getAppDatabase(), userId, companyId, registryId)), [userId, companyId, registryId]);
}

/** The registry `?id=` names, else the oldest one waiting for the owner; null when there is none. */
export function useRegistryToDecide(companyId: string, registryId: string | null): RegistryView | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(() => {
    const db = getAppDatabase();
    return registryId === null || registryId === '' ? readNextToDecide(db, userId, companyId) : readRegistry(db, userId, companyId, registryId);
  }, [userId, companyId, registryId]);
}

/** True while the main-service is known to be out of reach (the health probe failed). */
export function useIsOffline(): boolean {
  return useConnectivity() === 'offline';
}

export interface RegistryActions {
  /** Sends the open registry (the projects the sender sees in it); answers the new registry's id. */
  send: (projectIds: readonly string[]) => Promise<string>;
  approve: (registryId: string, input: RegistryApproveInput) => Promise<void>;
  return: (registryId: string, comment: string) => Promise<void>;
}

/** Field errors of the store as the approval form names its fields: `cost.<projectId>`, `reason.<projectId>`, `comment`. */
function formFieldOf(field: string, input: RegistryApproveInput | null): string {
  const match = /^adjustments\.(\d+)\.(\w+)$/.exec(field);
  const projectId = match ? input?.adjustments[Number(match[1])]?.projectId : undefined;
  if (!match || projectId === undefined) return field;
  return match[2] === 'reason' ? `reason.${projectId}` : `cost.${projectId}`;
}

function fieldMessage(intl: IntlShape, code: string): string {
  if (code === 'required') return intl.formatMessage({ id: 'registry.error.required', defaultMessage: 'Fill this in.' });
  if (code === 'notInRegistry') return intl.formatMessage({ id: 'error.validation.notInRegistry', defaultMessage: 'This project is not in this registry.' });
  return intl.formatMessage({ id: 'error.validation.fallback', defaultMessage: 'Field is invalid' });
}

/** A refusal of the store as the form or the error dialog shows it. */
function explainRefusal(intl: IntlShape, error: unknown, input: RegistryApproveInput | null = null): never {
  if (error instanceof StorageQuotaError) {
    throw new FormError({ message: intl.formatMessage({ id: 'registry.error.quota', defaultMessage: 'The device has no storage left, so nothing was saved. Free some space and try again.' }) });
  }
  if (!(error instanceof RegistryRefusedError)) throw error;
  switch (error.reason) {
    case 'missing':
      throw new FormError({ message: intl.formatMessage({ id: 'registry.error.missing', defaultMessage: 'This registry is not on this device.' }) });
    case 'notAllowed':
      throw new FormError({ message: intl.formatMessage({ id: 'registry.error.notAllowed', defaultMessage: 'You may not do this with the registry.' }) });
    case 'wrongState':
      throw new FormError({
        message: intl.formatMessage({ id: 'registry.error.wrongState', defaultMessage: 'The registry is no longer waiting for this: it was decided meanwhile.' }),
      });
    case 'empty':
      throw new FormError({ message: intl.formatMessage({ id: 'registry.error.empty', defaultMessage: 'The open registry is empty: there is nothing to send.' }) });
    case 'changed':
      throw new FormError({
        message: intl.formatMessage({
          id: 'registry.error.changed',
          defaultMessage: 'The open registry changed while you were looking at it. Check its projects and send it again.',
        }),
      });
    case 'invalid': {
      const fieldErrors: Record<string, string> = {};
      for (const [field, code] of Object.entries(error.fieldErrors)) fieldErrors[formFieldOf(field, input)] = fieldMessage(intl, code);
      throw new FormError({ fieldErrors });
    }
  }
}

/**
 * Sending the open registry and the owner's decisions, through the outbox (they work offline; the replayer sends
 * them). A refusal on the device throws a `FormError`.
 */
export function useRegistryActions(companyId: string): RegistryActions {
  const user = useCurrentUser();
  const member = useMemberRoles(companyId);
  const intl = useIntl();
  return useMemo(() => {
    const context: RegistryActionContext = { db: getAppDatabase(), actor: { id: user.id, fullName: user.fullName }, member, afterWrite: afterEnqueue };
    return {
      send: (projectIds) =>
        sendRegistry(context, companyId, projectIds).then(
          (registry) => registry.id,
          (error: unknown) => explainRefusal(intl, error),
        ),
      approve: (registryId, input) =>
        approveRegistry(context, companyId, registryId, input).then(
          () => undefined,
          (error: unknown) => explainRefusal(intl, error, input),
        ),
      return: (registryId, comment) =>
        returnRegistry(context, companyId, registryId, { comment }).then(
          () => undefined,
          (error: unknown) => explainRefusal(intl, error),
        ),
    };
  }, [companyId, intl, member, user.fullName, user.id]);
}

/** Downloads a registry as XLSX or PDF (online only); a failure is told in the error dialog. */
export function useRegistryExport(companyId: string): (registry: RegistryView['registry'], format: RegistryExportFormat) => Promise<void> {
  const dialog = useDialog();
  const intl = useIntl();
  return useCallback(
    async (registry, format) => {
      try {
        const file = await fetchRegistryExport(http, companyId, registry, format);
        saveFile(file.blob, file.fileName);
      } catch (error) {
        const content =
          error instanceof HttpError && error.status === 0
            ? intl.formatMessage({
                id: 'registry.export.offline',
                defaultMessage: 'The file could not be downloaded: downloads need a connection to the server. Try again when you are back online.',
              })
            : failureMessage(intl, error);
        await dialog.error({ content });
      }
    },
    [companyId, dialog, intl],
  );
}
