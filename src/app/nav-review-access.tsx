import { useEffect } from 'react';
import type { Roles } from '../domain/permissions';
import { useReviewAccess } from '../features/notifications/hooks';
import type { SuggestionAccess } from './nav-items';

/**
 * Tells the navigation whether the member decides on others' proposals (a department head does, which only the
 * device's mirror of the departments knows), once it has been read. Loaded lazily, with the database: the
 * navigation shows what the roles alone allow until then.
 */
export function ReviewAccessProbe({
  userId,
  companyId,
  roles,
  onAccess,
}: {
  userId: string;
  companyId: string;
  roles: Roles;
  onAccess: (access: SuggestionAccess) => void;
}) {
  const access = useReviewAccess(userId, companyId, roles);
  useEffect(() => {
    if (access !== undefined) onAccess(access);
  }, [access, onAccess]);
  return null;
}
