import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import type { Roles } from '../../../domain/permissions';
import { useReviewAccess } from '../hooks';

export interface SuggestionsNavLinkProps {
  userId: string;
  companyId: string;
  roles: Roles;
  /** The header's link class (active or not), and whether it is the current page. */
  className: (href: string) => string;
  isCurrent: (href: string) => boolean;
}

/**
 * The header's entry to others' proposals: "To review" for a member who decides on some (OWNER, CEO, a
 * department head), "Proposals" for one who only sees them (HR, direction manager); nothing for the others
 * ("My proposals" stays theirs).
 */
export function SuggestionsNavLink({ userId, companyId, roles, className, isCurrent }: SuggestionsNavLinkProps) {
  const access = useReviewAccess(userId, companyId, roles);
  if (!access) return null;
  const href = paths.company.suggestions(companyId);
  return (
    <Link href={href} className={className(href)} aria-current={isCurrent(href) ? 'page' : undefined} data-nav="suggestions" data-access={access}>
      {access === 'decide' ? (
        <FormattedMessage id="nav.suggestionsToReview" defaultMessage="To review" />
      ) : (
        <FormattedMessage id="nav.suggestions" defaultMessage="Proposals" />
      )}
    </Link>
  );
}
