// What the dashboard shows for now: the signed-in user and the titles of their role and position
// from the app config (both loaded by the default layout before any page renders).

import { useLocale } from '../../lib/intl';
import { useAppConfig, useCurrentUser } from '../../lib/app-state';
import { hasAuthority, type CurrentUser, type EnumOption } from '../../domain/user';

function titleOf(options: readonly EnumOption[] | undefined, id: string | null): string | null {
  if (id === null) return null;
  return options?.find((option) => option.id === id)?.title ?? id;
}

export interface DashboardGreeting {
  /** "Иван Петрович" in Russian when there is a middle name, the first name otherwise. */
  name: string;
  roleTitle: string | null;
  company: CurrentUser['company'];
  /** Platform administrators get a way to their page (company verification review). */
  isAdmin: boolean;
  /** The companies the user is a member of: each gets "Submit a proposal" and "My proposals". */
  memberships: { id: string; name: string }[];
}

export function useDashboardGreeting(): DashboardGreeting {
  const user = useCurrentUser();
  const { enums } = useAppConfig();
  const { locale } = useLocale();
  const name = locale === 'ru' && user.middleName ? `${user.firstName} ${user.middleName}` : user.firstName || user.fullName;
  const memberships = (user.companies ?? []).map(({ id, name: companyName }) => ({ id, name: companyName }));
  return { name, roleTitle: titleOf(enums.ROLE, user.role), company: user.company, isAdmin: hasAuthority(user, 'ROLE_ADMIN'), memberships };
}
