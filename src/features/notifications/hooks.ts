// What the bell, the notifications page and the header's proposals link read and do. Reads go through
// `useLiveQuery` over the device's mirror only, so they work offline and follow every pull and every local
// write at once; writes go through store.ts (the mirror and the outbox in one transaction), then the outbox
// is drained. The bell and the header link get the user as props: the header renders outside the signed-in
// user's context.
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback } from 'react';
import { SUGGESTION_REVIEW_OVERRIDE_ROLES, canSeeAllSuggestions, hasAnyRole, type Roles } from '../../domain/permissions';
import { useCurrentUser } from '../../lib/app-state';
import { useCurrentCompany } from '../../lib/current-company';
import { getAppDatabase } from '../../lib/db/database';
import { headedDepartmentIds } from '../../lib/member-view';
import { afterEnqueue } from '../../lib/offline';
import { countUnread, listNotifications, markAllNotificationsRead, markNotificationsRead, type NotificationList } from './store';

/** The unread notifications of `userId` in `companyId` on this device; undefined while loading. */
export function useUnreadCount(userId: string, companyId: string): number | undefined {
  return useLiveQuery(() => countUnread(getAppDatabase(), userId, companyId), [userId, companyId]);
}

/** The current company's newest `limit` notifications; null without a company, undefined while loading. */
export function useNotifications(limit: number): { companyId: string; list: NotificationList } | null | undefined {
  const { id: userId } = useCurrentUser();
  const companyId = useCurrentCompany()?.id ?? null;
  return useLiveQuery(async () => {
    if (companyId === null) return null;
    return { companyId, list: await listNotifications(getAppDatabase(), userId, companyId, limit) };
  }, [userId, companyId, limit]);
}

export interface NotificationActions {
  /** Marks these notifications of the company read (on the device at once, then on the server). */
  markRead: (companyId: string, ids: readonly string[]) => Promise<void>;
  /** Marks every unread notification of the company read. */
  markAllRead: (companyId: string) => Promise<void>;
}

export function useNotificationActions(): NotificationActions {
  const { id: userId } = useCurrentUser();
  const markRead = useCallback(
    async (companyId: string, ids: readonly string[]) => {
      if ((await markNotificationsRead(getAppDatabase(), userId, companyId, ids)) > 0) afterEnqueue();
    },
    [userId],
  );
  const markAllRead = useCallback(
    async (companyId: string) => {
      if ((await markAllNotificationsRead(getAppDatabase(), userId, companyId)) > 0) afterEnqueue();
    },
    [userId],
  );
  return { markRead, markAllRead };
}

/** What the member may do with others' proposals: decide on some, only see them, or neither. */
export type ReviewAccess = 'decide' | 'see' | null;

/**
 * The member's access to others' proposals in the company (src/domain/permissions.ts): OWNER and CEO decide
 * on any, the head of a department (from the mirrored departments) on its own; HR and the direction manager
 * see all. Undefined while the mirror is read.
 */
export function useReviewAccess(userId: string, companyId: string, roles: Roles): ReviewAccess | undefined {
  const rolesKey = roles.join(',');
  return useLiveQuery(async () => {
    const memberRoles = rolesKey === '' ? [] : rolesKey.split(',');
    if (hasAnyRole(memberRoles, SUGGESTION_REVIEW_OVERRIDE_ROLES)) return 'decide';
    if ((await headedDepartmentIds(getAppDatabase(), userId, companyId)).length > 0) return 'decide';
    return canSeeAllSuggestions(memberRoles) ? 'see' : null;
  }, [userId, companyId, rolesKey]);
}
