// The profile's data and actions: the signed-in user (loaded by the default layout), titles from the
// app config, the interface language (stored by the intl provider, which also tells the server) and
// sign-out (spec section 4: both tokens cleared, login route, reload).

import { useAppConfig, useCurrentUser } from '../../lib/app-state';
import { useLocale } from '../../lib/intl';
import { signOut } from '../../lib/session';
import { hasAuthority, type CurrentUser, type EnumOption } from '../../domain/user';

function titleOf(options: readonly EnumOption[] | undefined, id: string | null): string | null {
  if (id === null || id === '') return null;
  return options?.find((option) => option.id === id)?.title ?? id;
}

/** Something shown for a department: its name when the server sends one. */
function describe(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'object' && value !== null) {
    if ('name' in value && typeof value.name === 'string') return value.name;
    if ('title' in value && typeof value.title === 'string') return value.title;
  }
  return null;
}

export interface Profile {
  user: CurrentUser;
  roleTitle: string | null;
  /** The chosen position's title, or the position the user typed for "other position". */
  positionTitle: string | null;
  mainGoalTitle: string | null;
  departmentName: string | null;
  isAdmin: boolean;
}

export function useProfile(): Profile {
  const user = useCurrentUser();
  const { enums } = useAppConfig();
  const otherPosition = user.otherPosition;
  return {
    user,
    roleTitle: titleOf(enums.ROLE, user.role),
    positionTitle: user.position === 'OTHER' && otherPosition ? otherPosition : titleOf(enums.POSITION, user.position),
    mainGoalTitle: titleOf(enums.IMPLEMENTATION_GOAL, user.mainGoal),
    departmentName: describe(user.department),
    isAdmin: hasAuthority(user, 'ROLE_ADMIN'),
  };
}

export function useLanguage() {
  return useLocale();
}

export function useSignOut(): () => Promise<void> {
  return signOut;
}
