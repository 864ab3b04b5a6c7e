// The company the signed-in user is working in (a user may belong to several, CurrentUser.companies).
// What it stores and why: the chosen company's id in localStorage under `currentCompany:<userId>`, per user,
// so the choice survives reloads and a second user on the same device has a choice of their own.
// Guarantees: the current company is always one of the user's companies: a stored id the user no longer
// belongs to (left, deactivated, or a value written by hand) is ignored, and the first of
// `CurrentUser.companies` stands in; a user without companies has none (null). Every open tab and every
// component follows a change at once (the `storage` event carries it between tabs). Sign-out forgets the
// signed-out user's choice (`forgetCurrentCompany`), so the next person on the device learns nothing of it.
import { useCallback, useSyncExternalStore } from 'react';
import type { CurrentUser } from '../domain/user';
import { useCurrentUser } from './app-state';

export const CURRENT_COMPANY_KEY_PREFIX = 'currentCompany:';

/** One of the user's companies with the user's roles there, as `GET /user` lists them. */
export type CompanyMembership = NonNullable<CurrentUser['companies']>[number];

const listeners = new Set<() => void>();

function keyOf(userId: string): string {
  return `${CURRENT_COMPANY_KEY_PREFIX}${userId}`;
}

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch (error) {
    // Storage can be disabled (privacy mode): the first company is then always the current one.
    console.warn('localStorage is not available for the current company', error);
    return null;
  }
}

/** The id stored for `userId`, unchecked (it may name a company the user has left). */
export function readStoredCompanyId(userId: string, store: Storage | null = storage()): string | null {
  return store?.getItem(keyOf(userId)) ?? null;
}

/** Makes `companyId` the current company of `userId` (in this tab and, through `storage`, in the others). */
export function setCurrentCompany(userId: string, companyId: string, store: Storage | null = storage()): void {
  if (readStoredCompanyId(userId, store) === companyId) return;
  try {
    store?.setItem(keyOf(userId), companyId);
  } catch (error) {
    // A full storage keeps the previous choice; the switch still applies until the page reloads.
    console.warn('Could not remember the current company', error);
  }
  for (const listener of listeners) listener();
}

/** Forgets the current company of `userId` (sign-out on a shared device). */
export function forgetCurrentCompany(userId: string, store: Storage | null = storage()): void {
  if (readStoredCompanyId(userId, store) === null) return;
  try {
    store?.removeItem(keyOf(userId));
  } catch (error) {
    console.warn('Could not forget the current company', error);
  }
  for (const listener of listeners) listener();
}

/** The current company among `companies`: the stored one if the user still belongs to it, else the first. */
export function pickCurrentCompany(companies: readonly CompanyMembership[] | undefined, storedId: string | null): CompanyMembership | null {
  const list = companies ?? [];
  return list.find((company) => company.id === storedId) ?? list[0] ?? null;
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(CURRENT_COMPANY_KEY_PREFIX)) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** The current company of `user` (for the shell, which renders before the user context exists). */
export function useCurrentCompanyOf(user: Pick<CurrentUser, 'id' | 'companies'> | null): CompanyMembership | null {
  const userId = user?.id ?? null;
  const storedId = useSyncExternalStore(
    subscribe,
    () => (userId === null ? null : readStoredCompanyId(userId)),
    () => null,
  );
  return user ? pickCurrentCompany(user.companies, storedId) : null;
}

/** The signed-in user's current company (null when they belong to none). Inside the default layout only. */
export function useCurrentCompany(): CompanyMembership | null {
  return useCurrentCompanyOf(useCurrentUser());
}

/** `setCurrentCompany` for the signed-in user. */
export function useSetCurrentCompany(): (companyId: string) => void {
  const { id: userId } = useCurrentUser();
  return useCallback((companyId: string) => setCurrentCompany(userId, companyId), [userId]);
}
