import { useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { paths } from '../../../domain/paths';
import { useUnreadCount } from '../hooks';
import '../notifications.css';

/** Above this the badge shows "99+"; the accessible name keeps the exact number. */
const SHOWN_MAX = 99;

/**
 * The header's bell: a link to the notifications page with the unread count of the current company, read
 * from the device (so it counts offline too). The count is in the link's name for screen readers.
 */
export function NotificationBell({ userId, companyId }: { userId: string; companyId: string }) {
  const count = useUnreadCount(userId, companyId) ?? 0;
  return <BellLink count={count} />;
}

export function BellLink({ count }: { count: number }) {
  const intl = useIntl();
  const [location] = useLocation();
  const label = intl.formatMessage(
    { id: 'notifications.bell.label', defaultMessage: '{count, plural, =0 {Notifications} other {Notifications, # unread}}' },
    { count },
  );
  const isCurrent = location === paths.notifications;
  return (
    <Link
      href={paths.notifications}
      className={`notification-bell${isCurrent ? ' notification-bell--current' : ''}`}
      aria-label={label}
      title={label}
      aria-current={isCurrent ? 'page' : undefined}
      data-unread={count}
    >
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
        <path d="M13.73 21a2 2 0 0 1-3.46 0" />
      </svg>
      {count > 0 && (
        <span className="notification-bell__count" aria-hidden="true">
          {count > SHOWN_MAX
            ? intl.formatMessage({ id: 'notifications.bell.many', defaultMessage: '{count, number}+' }, { count: SHOWN_MAX })
            : intl.formatNumber(count)}
        </span>
      )}
    </Link>
  );
}
