import 'fake-indexeddb/auto';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { IntlProvider } from 'react-intl';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import ru from '../../../locales/ru.json';
import type { NotificationRow } from '../../domain/notification';
import { getAppDatabase } from '../../lib/db/database';
import { BellLink, NotificationBell } from './components/bell';
import { NotificationList } from './pages/notifications-page';
import { markNotificationsRead, type NotificationItem } from './store';

afterEach(async () => {
  cleanup();
  await getAppDatabase().notifications.clear();
  await getAppDatabase().outbox.clear();
});

function renderIn(locale: 'en' | 'ru', children: ReactNode, path = '/notifications') {
  const location = memoryLocation({ path, record: true });
  render(
    <IntlProvider locale={locale} messages={locale === 'ru' ? ru : en} onError={(error) => { throw error; }}>
      <Router hook={location.hook}>{children}</Router>
    </IntlProvider>,
  );
  return location;
}

let counter = 0;
function notification(kind: string, params: Record<string, string | null>, overrides: Partial<NotificationRow> = {}): NotificationRow {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${counter.toString().padStart(12, '0')}`,
    companyId: 'c1',
    userId: 'u1',
    kind,
    suggestionId: 's1',
    params,
    readAt: null,
    createdAt: '2026-11-24T09:00:00.000Z',
    ...overrides,
  };
}

const due = '2026-11-29T09:00:00.000Z';
const title = 'Shorter changeover';

/** Each kind with its words, and what it says in English and in Russian. */
const KINDS: [string, Record<string, string | null>, string, string][] = [
  ['SUGGESTION_SUBMITTED', { title, dueAt: due }, 'New proposal “Shorter changeover” to decide by Nov 29', 'Новое предложение «Shorter changeover»: решение нужно принять до 29 нояб.'],
  ['SUGGESTION_APPROVED', { title, byName: 'Petrov P.' }, 'Your proposal “Shorter changeover” was approved by Petrov P.', 'Ваше предложение «Shorter changeover» одобрено, решение принято: Petrov P.'],
  ['SUGGESTION_REJECTED', { title, byName: 'Petrov P.', comment: 'Too costly' }, 'Your proposal “Shorter changeover” was rejected by Petrov P.', 'Ваше предложение «Shorter changeover» отклонено, решение принято: Petrov P.'],
  ['SUGGESTION_CLARIFICATION', { title, byName: 'Petrov P.', comment: 'Which line?' }, 'Petrov P. asks you to clarify your proposal “Shorter changeover”', 'Petrov P. просит уточнить ваше предложение «Shorter changeover»'],
  ['SUGGESTION_RESENT', { title, byName: 'Ivanov I.' }, 'The proposal “Shorter changeover” was clarified and sent again by Ivanov I.', 'Предложение «Shorter changeover» уточнено и отправлено снова (автор: Ivanov I.)'],
  ['SUGGESTION_DISTRIBUTED', { title, departmentName: 'Assembly', dueAt: due }, 'The proposal “Shorter changeover” was passed to the department “Assembly”: decide by Nov 29', 'Предложение «Shorter changeover» передано в подразделение «Assembly»: решение нужно принять до 29 нояб.'],
  ['SUGGESTION_REMINDER', { title, dueAt: '2026-11-26T09:00:00.000Z' }, '2 days left to decide “Shorter changeover” (by Nov 26)', 'Осталось 2 дня, чтобы принять решение по предложению «Shorter changeover» (до 26 нояб.)'],
  ['SUGGESTION_ESCALATED', { title }, '“Shorter changeover” is overdue and now yours to decide', 'Срок решения по предложению «Shorter changeover» истёк, теперь решение за вами'],
  ['GOAL_ASSIGNED', { title: 'Less scrap', byName: 'Owner O.' }, 'Goal “Less scrap” is set for you by Owner O.', 'Owner O. ставит вам цель «Less scrap»'],
  ['GOAL_TO_WORK', { title: 'Less scrap', byName: 'Head H.' }, 'Head H. took the goal “Less scrap” to work: it waits for approval', 'Head H. взял(а) цель «Less scrap» в работу: она ждёт утверждения'],
  ['GOAL_CLARIFICATION', { title: 'Less scrap', byName: 'Head H.', comment: 'Which line?' }, 'Head H. asks to clarify the goal “Less scrap”', 'Head H. просит уточнить цель «Less scrap»'],
  ['GOAL_APPROVED', { title: 'Less scrap', byName: 'Owner O.' }, 'The goal “Less scrap” was approved by Owner O.', 'Цель «Less scrap» утверждена, утвердил(а): Owner O.'],
  ['PROJECT_CREATED', { title, byName: 'Head H.' }, 'You manage the project “Shorter changeover” (created by Head H.)', 'Вы руководитель проекта «Shorter changeover» (создал(а): Head H.)'],
  ['PROJECT_CALCULATING', { title, byName: 'Head H.' }, 'Project “Shorter changeover” to calculate (sent by Head H.)', 'Проект «Shorter changeover» передан на расчёт (отправил(а): Head H.)'],
  ['PROJECT_CALCULATED', { title, byName: 'Finspec F.' }, 'Project “Shorter changeover” is calculated and waits for your approval', 'Проект «Shorter changeover» рассчитан и ждёт вашего утверждения'],
  ['PROJECT_APPROVED', { title, byName: 'Direction D.' }, 'Your project “Shorter changeover” was approved by Direction D.', 'Ваш проект «Shorter changeover» утверждён, утвердил(а): Direction D.'],
  ['PROJECT_FOR_REVISION', { title, byName: 'Direction D.', comment: 'No costs' }, 'Your project “Shorter changeover” was returned for revision by Direction D.', 'Ваш проект «Shorter changeover» возвращён на доработку, вернул(а): Direction D.'],
  ['PROJECT_REPORT_DUE', { title, dueDate: '2026-11-29' }, 'The indicator report on the project “Shorter changeover” is due today (Nov 29, 2026)', 'Сегодня срок отчёта по показателям проекта «Shorter changeover» (29 нояб. 2026 г.)'],
  ['PROJECT_REPORT_OVERDUE', { title, dueDate: '2026-11-01' }, 'The indicator report on the project “Shorter changeover” is overdue (it was due Nov 1, 2026)', 'Отчёт по показателям проекта «Shorter changeover» просрочен (срок был 1 нояб. 2026 г.)'],
  ['SOMETHING_NEWER', { title }, 'News about the proposal “Shorter changeover”', 'Новости по предложению «Shorter changeover»'],
];

describe('the notifications page', () => {
  for (const locale of ['en', 'ru'] as const) {
    it(`says what happened for every kind in ${locale === 'en' ? 'English' : 'Russian'}`, () => {
      const items: NotificationItem[] = KINDS.map(([kind, params]) => ({ notification: notification(kind, params), isRead: false }));
      renderIn(locale, <NotificationList companyId="c1" items={items} onOpen={() => undefined} />);
      const texts = [...document.querySelectorAll('.notification-list__text')].map((node) => node.textContent);
      expect(texts).toEqual(KINDS.map(([, , english, russian]) => (locale === 'en' ? english : russian)));
    });
  }

  it('shows the reason of a rejection and the question of a clarification on their own line', () => {
    const items: NotificationItem[] = [
      { notification: notification('SUGGESTION_REJECTED', { title, byName: 'Petrov P.', comment: 'Too costly' }), isRead: false },
      { notification: notification('SUGGESTION_CLARIFICATION', { title, byName: 'Petrov P.', comment: 'Which line?' }), isRead: false },
    ];
    renderIn('ru', <NotificationList companyId="c1" items={items} onOpen={() => undefined} />);
    expect([...document.querySelectorAll('.notification-list__detail')].map((node) => node.textContent)).toEqual(['Причина: Too costly', 'Вопрос: Which line?']);
  });

  it('shows the question of a goal clarification and the reason of a project returned for revision', () => {
    const items: NotificationItem[] = [
      { notification: notification('GOAL_CLARIFICATION', { title, comment: 'Which line?' }, { suggestionId: null, goalId: 'g1' }), isRead: false },
      { notification: notification('PROJECT_FOR_REVISION', { title, comment: 'No costs' }, { suggestionId: null, projectId: 'p1' }), isRead: false },
    ];
    renderIn('en', <NotificationList companyId="c1" items={items} onOpen={() => undefined} />);
    expect([...document.querySelectorAll('.notification-list__detail')].map((node) => node.textContent)).toEqual(['Question: Which line?', 'Reason: No costs']);
  });

  it('leaves out the words the server did not send', () => {
    const items: NotificationItem[] = [
      { notification: notification('SUGGESTION_APPROVED', { title }), isRead: false },
      { notification: notification('SUGGESTION_SUBMITTED', { title, dueAt: null }), isRead: false },
      { notification: notification('SOMETHING_NEWER', {}), isRead: false },
      { notification: notification('GOAL_TO_WORK', { title }), isRead: false },
      { notification: notification('PROJECT_REPORT_DUE', { title, dueDate: 'soon' }), isRead: false },
    ];
    renderIn('en', <NotificationList companyId="c1" items={items} onOpen={() => undefined} />);
    expect([...document.querySelectorAll('.notification-list__text')].map((node) => node.textContent)).toEqual([
      'Your proposal “Shorter changeover” was approved',
      'New proposal “Shorter changeover”',
      'A new notification',
      'The business customer took the goal “Shorter changeover” to work: it waits for approval',
      'The indicator report on the project “Shorter changeover” is due today',
    ]);
  });

  it('opens the goal or the project a notification is about, and leaves one about nothing unlinked', async () => {
    const user = userEvent.setup();
    const goal = notification('GOAL_ASSIGNED', { title }, { suggestionId: null, goalId: 'g1' });
    const project = notification('PROJECT_CREATED', { title }, { suggestionId: 's1', projectId: 'p1' });
    const nothing = notification('PROJECT_REPORT_DUE', { title }, { suggestionId: null });
    const onOpen = vi.fn();
    const location = renderIn(
      'en',
      <NotificationList
        companyId="c1"
        items={[goal, project, nothing].map((item) => ({ notification: item, isRead: false }))}
        onOpen={onOpen}
      />,
    );
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/companies/c1/goals/g1', '/companies/c1/projects/p1']);
    expect(document.querySelectorAll('button.notification-list__link')).toHaveLength(1);
    await user.click(links[1] as HTMLElement);
    expect(onOpen).toHaveBeenCalledWith(project.id);
    expect(location.history.at(-1)).toBe('/companies/c1/projects/p1');
  });

  it('marks the unread ones, dates each and opens the proposal, marking it read', async () => {
    const user = userEvent.setup();
    const unread = notification('SUGGESTION_APPROVED', { title, byName: 'Petrov P.' });
    const read = notification('SUGGESTION_ESCALATED', { title: 'Old one' }, { suggestionId: 's2', readAt: '2026-11-24T10:00:00.000Z' });
    const onOpen = vi.fn();
    const location = renderIn(
      'en',
      <NotificationList
        companyId="c1"
        items={[
          { notification: unread, isRead: false },
          { notification: read, isRead: true },
        ]}
        onOpen={onOpen}
      />,
    );
    const [first, second] = screen.getAllByRole('link');
    expect(first?.textContent).toMatch(/^Unread/);
    expect(second?.textContent).not.toMatch(/Unread/);
    expect(first?.querySelector('time')?.getAttribute('dateTime')).toBe(unread.createdAt);
    expect(first?.getAttribute('href')).toBe('/companies/c1/suggestions/s1');

    await user.click(second as HTMLElement);
    expect(onOpen).not.toHaveBeenCalled();
    await user.click(first as HTMLElement);
    expect(onOpen).toHaveBeenCalledWith(unread.id);
    expect(location.history.at(-1)).toBe('/companies/c1/suggestions/s1');
  });

  it('says so when there is nothing yet', () => {
    renderIn('ru', <NotificationList companyId="c1" items={[]} onOpen={() => undefined} />);
    expect(screen.getByText(/Уведомлений пока нет/)).toBeTruthy();
  });
});

describe('the bell', () => {
  it('names the unread count for screen readers in both languages', () => {
    renderIn('en', <BellLink count={3} />);
    expect(screen.getByRole('link', { name: 'Notifications, 3 unread' }).getAttribute('href')).toBe('/notifications');
    cleanup();
    renderIn('ru', <BellLink count={3} />);
    expect(screen.getByRole('link', { name: 'Уведомления, непрочитанных: 3' })).toBeTruthy();
    cleanup();
    renderIn('en', <BellLink count={0} />);
    expect(screen.getByRole('link', { name: 'Notifications' }).textContent).toBe('');
    cleanup();
    renderIn('en', <BellLink count={150} />);
    expect(screen.getByRole('link', { name: 'Notifications, 150 unread' }).textContent).toBe('99+');
  });

  it('counts the current company’s unread notifications from the device and follows a read at once', async () => {
    const db = getAppDatabase();
    const first = notification('SUGGESTION_APPROVED', { title });
    await db.notifications.bulkPut(
      [first, notification('SUGGESTION_REJECTED', { title }), notification('SUGGESTION_REJECTED', { title }, { companyId: 'c2' })].map((row) => ({ ...row, ownerUserId: 'u1' })),
    );
    await db.notifications.put({ ...notification('SUGGESTION_REJECTED', { title }, { userId: 'u2' }), ownerUserId: 'u2' });
    renderIn('en', <NotificationBell userId="u1" companyId="c1" />);
    expect(await screen.findByRole('link', { name: 'Notifications, 2 unread' })).toBeTruthy();

    await act(async () => {
      await markNotificationsRead(db, 'u1', 'c1', [first.id]);
    });
    await waitFor(() => expect(screen.getByRole('link', { name: 'Notifications, 1 unread' })).toBeTruthy());
  });
});
