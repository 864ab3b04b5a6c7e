// What the company screens read and do. Reads come from the device's mirror through `useLiveQuery` (checked
// with the row struct), so the screens show what the device knows also offline; the caller's roles come from
// `CurrentUser.companies`. Writes are online-only (store.ts): they are always tried (the connectivity probe
// only informs the banners), and when nothing answers they say "offline" in the user's language instead of a
// bare failure; after a write the server's answer is in the mirror, so the screens update at once.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { CompanyInput } from '../../domain/company';
import { hasPermission, type Permission } from '../../domain/permissions';
import { CompanyRow } from '../../domain/suggestion';
import { http } from '../../lib/api';
import { useCurrentUser, useReloadCurrentUser } from '../../lib/app-state';
import { loadAuthorizedImage } from '../../lib/authorized-image';
import { useConnectivity } from '../../lib/connectivity';
import { setCurrentCompany, useCurrentCompany } from '../../lib/current-company';
import { getAppDatabase } from '../../lib/db/database';
import { checkRows } from '../../lib/db/rows';
import { HttpError } from '../../lib/http';
import { uploadFile } from '../../lib/upload';
import { useDialog } from '../../ui/dialog';
import type { LoadImageFn, UploadFn } from '../../ui/file-upload/types';
import { FormError } from '../../ui/form';
import { toFormError } from '../../lib/request-errors';
import { registrationPrefillOf, type RegistrationPrefill } from './registration-prefill';
import { createCompany, fetchInvoice, reportPayment } from './store';
import { saveFile } from '../../lib/download';

export type { CompanyRow } from '../../domain/suggestion';


/** One company from the mirror: the row, null when the device does not hold it, undefined while loading. */
export function useCompany(companyId: string): CompanyRow | null | undefined {
  const { id: userId } = useCurrentUser();
  return useLiveQuery(async () => {
    const stored = await getAppDatabase().companies.get([userId, companyId]);
    return stored ? (checkRows(CompanyRow, [stored], 'companies').rows[0] ?? null) : null;
  }, [userId, companyId]);
}

/** The id of the company the user is working in (see src/lib/current-company.ts), null without companies. */
export function useCurrentCompanyId(): string | null {
  return useCurrentCompany()?.id ?? null;
}

/** The signed-in user's roles in a company (none when not a member). */
export function useCompanyRoles(companyId: string): readonly string[] {
  const user = useCurrentUser();
  return user.companies?.find((company) => company.id === companyId)?.roles ?? [];
}

/** Whether the signed-in user holds `permission` in the company (DESIGN.md "Roles and permissions"). */
export function useCan(companyId: string, permission: Permission): boolean {
  return hasPermission(useCompanyRoles(companyId), permission);
}

/** True while the main-service is known to be out of reach (the health probe failed). */
export function useIsOffline(): boolean {
  return useConnectivity() === 'offline';
}

/** The logo field's upload and thumbnails (the app's uploader and bearer-token images). */
export function useLogoUpload(): { upload: UploadFn; loadImage: LoadImageFn } {
  return { upload: uploadFile, loadImage: loadAuthorizedImage };
}

/** The company details the user gave at registration, while they have no company yet (registration-prefill.ts). */
export function useRegistrationPrefill(): RegistrationPrefill | null {
  const user = useCurrentUser();
  return useMemo(() => registrationPrefillOf(user), [user]);
}

/**
 * Creates the company, puts it into the mirror, fetches the user again (so the company list, the switcher and
 * the pulls include it) and makes it the current company. Failures reach the form as `FormError`.
 */
export function useCreateCompany(): (input: CompanyInput) => Promise<CompanyRow> {
  const user = useCurrentUser();
  const reloadUser = useReloadCurrentUser();
  const intl = useIntl();
  return useCallback(
    async (input) => {
      let company: CompanyRow;
      try {
        company = await createCompany(http, getAppDatabase(), user.id, input);
      } catch (error) {
        // Tried even when the probe says offline (it may be wrong); no answer at all means offline.
        if (error instanceof HttpError && error.status === 0) {
          throw new FormError({
            message: intl.formatMessage({
              id: 'companies.create.offline',
              defaultMessage: 'You are offline. Adding a company needs a connection: your entries stay here, send them when you are back online.',
            }),
          });
        }
        throw toFormError(error);
      }
      setCurrentCompany(user.id, company.id);
      try {
        await reloadUser();
      } catch (error) {
        // The company exists and is in the mirror; the list follows on the next start.
        console.warn('Could not fetch the user again after creating a company', error);
      }
      return company;
    },
    [intl, reloadUser, user.id],
  );
}

/** The message for a write that failed outside a form (dialog content). */
function failureText(error: unknown, offlineText: string): string | undefined {
  if (error instanceof HttpError) return error.status === 0 ? offlineText : error.body?.message;
  console.error(error);
  return undefined;
}

/**
 * "I paid": asks for confirmation in the dialog host, reports the payment and resolves true once the company is
 * under review (false when the user changed their mind or it failed; the dialog has said why).
 */
export function useReportPayment(companyId: string): () => Promise<boolean> {
  const { id: userId } = useCurrentUser();
  const dialog = useDialog();
  const intl = useIntl();
  return useCallback(async () => {
    const offlineText = intl.formatMessage({
      id: 'companies.verificationPayment.offline',
      defaultMessage: 'You are offline. Reporting the payment needs a connection: try again when you are back online.',
    });
    const isConfirmed = await dialog.confirm({
      title: intl.formatMessage({ id: 'companies.verificationPayment.confirmTitle', defaultMessage: 'Have you paid the invoice?' }),
      content: intl.formatMessage({
        id: 'companies.verificationPayment.confirmText',
        defaultMessage: 'The platform will check that the payment has arrived. The review takes up to 5 days; you will see the result here and get an e-mail.',
      }),
      confirmText: intl.formatMessage({ id: 'companies.verificationPayment.confirm', defaultMessage: 'Yes, I paid' }),
      closeText: intl.formatMessage({ id: 'companies.verificationPayment.notYet', defaultMessage: 'Not yet' }),
    });
    if (!isConfirmed) return false;
    try {
      await reportPayment(http, getAppDatabase(), userId, companyId);
      return true;
    } catch (error) {
      const content = failureText(error, offlineText);
      await dialog.error(content === undefined ? {} : { content });
      return false;
    }
  }, [companyId, dialog, intl, userId]);
}

/** Downloads the company's invoice as `invoice-<number>.pdf`; a failure is told in the error dialog. */
export function useDownloadInvoice(companyId: string, invoiceNumber: string | null | undefined): () => Promise<void> {
  const dialog = useDialog();
  const intl = useIntl();
  return useCallback(async () => {
    try {
      const invoice = await fetchInvoice(http, companyId, invoiceNumber);
      saveFile(invoice.blob, invoice.fileName);
    } catch (error) {
      const content = failureText(
        error,
        intl.formatMessage({
          id: 'companies.invoice.offline',
          defaultMessage: 'The invoice could not be downloaded: the server cannot be reached. Try again when you are back online.',
        }),
      );
      await dialog.error(content === undefined ? {} : { content });
    }
  }, [companyId, dialog, intl, invoiceNumber]);
}

export { toFormError };
