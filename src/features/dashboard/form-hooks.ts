// The dashboard's two forms' calls, loaded with those forms (never with the page): inviting a leader from the
// setup checklist (online only, through store.ts) and the financial director's EBITDA months (online only: the
// server keeps EBITDA). Refusals and no answer come back as a `FormError` the forms show.
import { useCallback, useEffect, useState } from 'react';
import type { Invitation, InvitationInput } from '../../domain/company';
import type { EbitdaInput, EbitdaRow } from '../../domain/dashboard';
import { http } from '../../lib/api';
import { useCurrentUser } from '../../lib/app-state';
import { getAppDatabase } from '../../lib/db/database';
import { HttpError } from '../../lib/http';
import { FormError } from '../../ui/form';
import { listEbitda, saveEbitda, type EbitdaTransport } from './ebitda-store';
import { useIsOnline } from './hooks';
import { inviteLeader } from './store';

/** Invites a person to a leading role of the company; a refusal (403, 409, field errors) comes as a `FormError`. */
export function useInviteLeader(companyId: string): (input: InvitationInput) => Promise<Invitation> {
  const { id: ownerUserId } = useCurrentUser();
  return useCallback(
    async (input: InvitationInput) => {
      try {
        return await inviteLeader({ db: getAppDatabase(), http, ownerUserId }, companyId, input);
      } catch (error) {
        if (error instanceof HttpError) {
          if (error.status === 0) throw new FormError({ isOffline: true });
          throw new FormError({ message: error.body?.message, fieldErrors: error.body?.errors ?? {} });
        }
        throw error;
      }
    },
    [companyId, ownerUserId],
  );
}

/* EBITDA (financial director) -------------------------------------------------------------------- */

/** The EBITDA calls over the app's transport (token, refresh, Language, deadline, Idempotency-Key). */
export const ebitdaTransport: EbitdaTransport = http;

/** The server's field errors on the form's fields: the body's `amountMinor` is the form's typed `amount`. */
function formFieldErrors(errors: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([field, message]) => [field === 'amountMinor' ? 'amount' : field, message]));
}

export interface EbitdaState {
  /** The months entered in the listed range; undefined while loading or offline, null when the request failed. */
  rows: EbitdaRow[] | null | undefined;
  isOnline: boolean;
  /** Enters or clears one month; a refusal or no answer comes as a `FormError`. */
  save: (input: EbitdaInput) => Promise<EbitdaRow | null>;
}

/** The EBITDA months `from`..`to` ('YYYY-MM') of `companyId` (online only), and the financial director's entry. */
export function useEbitda(companyId: string, from: string, to: string, transport: EbitdaTransport = ebitdaTransport): EbitdaState {
  const isOnline = useIsOnline();
  const [loaded, setLoaded] = useState<{ range: string; rows: EbitdaRow[] | null } | null>(null);
  const [round, setRound] = useState(0);
  const range = `${companyId}|${from}|${to}`;
  useEffect(() => {
    if (!isOnline) return;
    let isCurrent = true;
    listEbitda(transport, companyId, from, to).then(
      (rows) => {
        if (isCurrent) setLoaded({ range, rows });
      },
      (error: unknown) => {
        console.warn('Could not load the EBITDA months', error);
        if (isCurrent) setLoaded({ range, rows: null });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [range, round, companyId, from, to, isOnline, transport]);
  const save = useCallback(
    async (input: EbitdaInput) => {
      try {
        const row = await saveEbitda(transport, companyId, input);
        setRound((value) => value + 1);
        return row;
      } catch (error) {
        if (error instanceof HttpError) {
          if (error.status === 0) throw new FormError({ isOffline: true });
          throw new FormError({ message: error.body?.message, fieldErrors: formFieldErrors(error.body?.errors ?? {}) });
        }
        throw error;
      }
    },
    [companyId, transport],
  );
  // A reload after a save keeps the listed months until the new list arrives.
  const rows = isOnline && loaded !== null && loaded.range === range ? loaded.rows : undefined;
  return { rows, isOnline, save };
}
