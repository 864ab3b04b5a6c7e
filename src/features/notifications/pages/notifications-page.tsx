import { useState } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { useNotificationActions, useNotifications } from '../hooks';
import { describeNotification } from '../messages';
import { NOTIFICATIONS_PAGE_SIZE, type NotificationItem } from '../store';
import '../notifications.css';

/** The current company's notifications, newest first, from the device; opening one marks it read. */
export default function NotificationsPage() {
  const [limit, setLimit] = useState(NOTIFICATIONS_PAGE_SIZE);
  const state = useNotifications(limit);
  const { markRead, markAllRead } = useNotificationActions();
  const [isMarking, setMarking] = useState(false);
  if (state === undefined) return <PageSpinner />;

  return (
    <section className="notifications-page" aria-labelledby="notifications-title">
      <div className="notifications-page__head">
        <h1 className="notifications-page__title" id="notifications-title">
          <FormattedMessage id="notifications.title" defaultMessage="Notifications" />
        </h1>
        {state !== null && state.list.unread > 0 && (
          <Button
            variant="secondary"
            data-action="mark-all-read"
            loading={isMarking}
            onClick={() => {
              setMarking(true);
              markAllRead(state.companyId)
                .catch((error: unknown) => console.error('Could not mark the notifications read', error))
                .finally(() => setMarking(false));
            }}
          >
            <FormattedMessage id="notifications.markAllRead" defaultMessage="Mark all as read" />
          </Button>
        )}
      </div>
      {state === null ? (
        <p className="notifications-page__empty">
          <FormattedMessage
            id="notifications.noCompany"
            defaultMessage="Notifications come from a company: join one or <link>add your own</link>."
            values={{ link: (chunks) => <Link href={paths.companiesCreate}>{chunks}</Link> }}
          />
        </p>
      ) : (
        <>
          {state.list.unread > 0 && (
            <p className="notifications-page__lead" role="status">
              <FormattedMessage id="notifications.unreadCount" defaultMessage="{count, plural, one {# unread} other {# unread}}" values={{ count: state.list.unread }} />
            </p>
          )}
          <NotificationList
            companyId={state.companyId}
            items={state.list.items}
            onOpen={(id) => {
              markRead(state.companyId, [id]).catch((error: unknown) => console.error('Could not mark the notification read', error));
            }}
          />
          {state.list.hasMore && (
            <p className="notifications-page__more">
              <Button variant="secondary" data-action="show-older" onClick={() => setLimit((value) => value + NOTIFICATIONS_PAGE_SIZE)}>
                <FormattedMessage id="notifications.showOlder" defaultMessage="Show older" />
              </Button>
            </p>
          )}
        </>
      )}
    </section>
  );
}

export interface NotificationListProps {
  companyId: string;
  items: readonly NotificationItem[];
  /** The user opened this notification (it is marked read). */
  onOpen: (id: string) => void;
}

/** Where a notification leads: its project, registry, goal or proposal; null when it names none. */
function notificationHref(companyId: string, notification: NotificationItem['notification']): string | null {
  const company = encodeURIComponent(companyId);
  // The most specific first: a project's notice may also name the proposal it was made from.
  if (notification.projectId) return paths.company.project(company, encodeURIComponent(notification.projectId));
  // A registry sent to the owner opens where they decide on it; its decision, the registries' page.
  if (notification.registryId) {
    return notification.kind === 'REGISTRY_SENT'
      ? `${paths.company.registryApprove(company)}?id=${encodeURIComponent(notification.registryId)}`
      : paths.company.registry(company);
  }
  if (notification.goalId) return paths.company.goal(company, encodeURIComponent(notification.goalId));
  if (notification.suggestionId) return paths.company.suggestion(company, encodeURIComponent(notification.suggestionId));
  return null;
}

/** The notifications as a list: what happened, when, unread ones marked; each leads to its proposal, goal or project. */
export function NotificationList({ companyId, items, onOpen }: NotificationListProps) {
  const intl = useIntl();
  if (items.length === 0) {
    return (
      <p className="notifications-page__empty">
        <FormattedMessage id="notifications.empty" defaultMessage="No notifications yet. When something happens to your proposals or to those you decide on, it shows here." />
      </p>
    );
  }
  return (
    <ul className="notification-list">
      {items.map(({ notification, isRead }) => {
        const { text, detail } = describeNotification(intl, notification);
        const content = (
          <>
            {!isRead && <span className="notification-list__unread" aria-hidden="true" />}
            <span className="notification-list__body">
              {/* A flex item of its own, so a screen reader keeps it apart from the sentence. */}
              {!isRead && (
                <span className="visually-hidden">
                  <FormattedMessage id="notifications.unread" defaultMessage="Unread" />
                </span>
              )}
              <span className="notification-list__text">{text}</span>
              {detail !== null && <span className="notification-list__detail">{detail}</span>}
              <time className="notification-list__time" dateTime={notification.createdAt}>
                <FormattedDate value={notification.createdAt} dateStyle="medium" timeStyle="short" />
              </time>
            </span>
          </>
        );
        const href = notificationHref(companyId, notification);
        const open = () => {
          if (!isRead) onOpen(notification.id);
        };
        return (
          <li key={notification.id} className={`notification-list__item${isRead ? '' : ' notification-list__item--unread'}`} data-kind={notification.kind} data-read={isRead}>
            {href !== null ? (
              <Link href={href} className="notification-list__link" onClick={open}>
                {content}
              </Link>
            ) : (
              <button type="button" className="notification-list__link" onClick={open} disabled={isRead}>
                {content}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
