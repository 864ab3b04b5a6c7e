import { useIntl } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { useUnsentCount } from '../hooks';
import '../outbox.css';

/** The header's count of unsent writes, a link to the Unsent screen; hidden at 0. */
export function UnsentBadge({ userId }: { userId: string }) {
  const intl = useIntl();
  const count = useUnsentCount(userId) ?? 0;
  if (count === 0) return null;
  const label = intl.formatMessage({ id: 'outbox.badge.label', defaultMessage: '{count, plural, one {# change} other {# changes}} not sent yet' }, { count });
  return (
    <Link href={paths.unsent} className="unsent-badge" aria-label={label} title={label} data-count={count}>
      <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        <path d="M12 21V9" />
        <path d="M7 14l5-5 5 5" />
        <path d="M5 3h14" />
      </svg>
      <span className="unsent-badge__count">{count}</span>
    </Link>
  );
}
