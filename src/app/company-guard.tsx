// The company pages' gate: `/companies/:companyId/...` shows its page only for a company the signed-in user
// belongs to (CurrentUser.companies, as `GET /user` answered or as remembered on this device when offline).
// Guarantees: an unknown or foreign company id in a URL (a stale link, a company the user has left, a
// typed-in id) shows the not-found screen, never an empty company page inviting the user to import staff;
// the server answers 404 to such ids anyway (requireAccess), this keeps the screens from reading an empty
// mirror as if it were that company.
import { lazy, type ReactNode } from 'react';
import { useCurrentUser } from '../lib/app-state';

const NotFoundPage = lazy(() => import('./not-found-page'));

/** Whether `companyId` is one of the user's companies. */
export function isOwnCompany(companies: readonly { id: string }[] | undefined, companyId: string): boolean {
  return (companies ?? []).some((company) => company.id === companyId);
}

/** `children` when the route names no company or one of the user's; the not-found screen otherwise. */
export function CompanyGuard({ companyId, children }: { companyId: string | undefined; children: ReactNode }) {
  const { companies } = useCurrentUser();
  if (companyId === undefined || isOwnCompany(companies, companyId)) return children;
  return <NotFoundPage />;
}
