// Notifications by mail and through the API: each notification mailed once, instantly (in the recipient's
// language, with the proposal's link) or in the daily digest (grouped by company, newest first); the read mark
// touches only the caller's own rows, also through a push batch; the mail setting on GET and PATCH /user.

import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NotificationKind, NotificationRow } from '../../../src/domain/notification';
import { createManualClock } from '../../clock';
import type { Database } from '../../db/database';
import { api, createTestApp, createTestDatabase, json, mailsTo, openSameDatabase, type TestApp, type TestDatabase } from '../../test-support';
import { createCompany, signUpMember, type Fixture, type Login } from '../suggestions/fixtures';
import { DIGEST_INTERVAL_MS, runDigestPass } from './digest';
import { notify } from './service';

const START = new Date('2026-06-01T09:00:00Z');
const HOUR = 3600 * 1000;
const clock = createManualClock(START);

let database: TestDatabase;
let t: TestApp;
let reader: Login;
let colleague: Login;
let outsider: Login;
let acme: Fixture;
let rival: Fixture;

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp({}, database, { clock });
  [reader, colleague, outsider] = [await signUpMember(t), await signUpMember(t), await signUpMember(t)];
  acme = await createCompany(t.db, 'ООО «Акме»', { [reader.id]: ['EMPLOYEE'], [colleague.id]: ['EMPLOYEE'] });
  rival = await createCompany(t.db, 'Rival Ltd', { [outsider.id]: ['OWNER'] });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

/** A user who never signs in, only receives mail. */
async function recipient(locale: 'ru' | 'en', mode: 'instant' | 'digest' = 'instant', names = { first: 'Анна', middle: 'Ивановна', last: 'Смирнова' }) {
  const email = `recipient.${randomUUID()}@example.com`;
  const row = await t.db.one<{ id: string }>(
    `INSERT INTO users (email, password_hash, first_name, middle_name, last_name, role, locale, notification_mail, email_verified_at)
     VALUES ($1, '!', $2, $3, $4, 'EMPLOYEE', $5, $6, now()) RETURNING id`,
    [email, names.first, names.middle, names.last, locale, mode],
  );
  return { id: row!.id, email };
}

async function send(userIds: string[], kind: NotificationKind, params: Record<string, string | null>, options: { companyId?: string; suggestionId?: string | null } = {}) {
  const suggestionId = options.suggestionId === undefined ? randomUUID() : options.suggestionId;
  await t.db.transaction((tx) => notify(tx, { companyId: options.companyId ?? acme.companyId, userIds, kind, suggestionId, params }, clock.now()));
  return suggestionId;
}

const mailedAt = (userId: string, db: Database = t.db) =>
  db.query<{ mailed_at: Date | null }>('SELECT mailed_at FROM notifications WHERE user_id = $1 ORDER BY created_at, id', [userId]);

const headers = (who: Login, language = 'en') => ({ authorization: `Bearer ${who.access}`, Language: language });

describe('instant mail', () => {
  it('mails a rejection in English with the reason, who decided and the link to the proposal', async () => {
    const user = await recipient('en', 'instant', { first: 'Anna', middle: '', last: 'Smith' });
    const suggestionId = await send([user.id], 'SUGGESTION_REJECTED', { title: 'Shorter changeovers', byName: 'Petrov Pyotr', comment: 'Too costly this year' });
    const mails = await mailsTo(t.db, user.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    const link = `http://app.test/companies/${acme.companyId}/suggestions/${suggestionId}`;
    expect(mail?.subject).toBe('Your proposal “Shorter changeovers” is rejected');
    expect(mail?.text_body).toContain('Hello, Anna!');
    expect(mail?.text_body).toContain('Petrov Pyotr rejected your proposal “Shorter changeovers”.');
    expect(mail?.text_body).toContain('Reason: Too costly this year');
    expect(mail?.text_body).toContain(`Open the proposal: ${link}`);
    expect(mail?.text_body).toContain('ООО «Акме»');
    expect(mail?.html_body).toContain(`href="${link}"`);
    expect(mail?.link).toBe(link);
    expect(mail?.kind).toBe('notification');
    expect(mail?.sent_at).not.toBeNull();
    expect(await mailedAt(user.id)).toEqual([{ mailed_at: clock.now() }]);
  });

  it('mails a new proposal in Russian with its department and due date (Moscow time)', async () => {
    const user = await recipient('ru');
    const suggestionId = await send([user.id], 'SUGGESTION_SUBMITTED', {
      title: 'Меньше переналадок',
      byName: 'Иванов Иван',
      departmentName: 'Производство',
      dueAt: '2026-06-06T09:00:00.000Z',
    });
    const [mail, ...more] = await mailsTo(t.db, user.email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Новое предложение на рассмотрение: «Меньше переналадок»');
    expect(mail?.text_body).toContain('Здравствуйте, Анна Ивановна!');
    expect(mail?.text_body).toContain('Поступило новое предложение «Меньше переналадок», решение по нему за вами. Автор: Иванов Иван.');
    expect(mail?.text_body).toContain('Подразделение: Производство');
    expect(mail?.text_body).toContain('Решение нужно принять до 6 июня 2026 г. в 12:00 (по московскому времени).');
    expect(mail?.text_body).toContain(`Открыть предложение: http://app.test/companies/${acme.companyId}/suggestions/${suggestionId}`);
  });

  it('words each kind in both languages, the reminder with the days left', async () => {
    const ru = await recipient('ru');
    const en = await recipient('en');
    const kinds: NotificationKind[] = ['SUGGESTION_APPROVED', 'SUGGESTION_CLARIFICATION', 'SUGGESTION_RESENT', 'SUGGESTION_DISTRIBUTED', 'SUGGESTION_REMINDER', 'SUGGESTION_ESCALATED'];
    for (const kind of kinds) await send([ru.id, en.id], kind, { title: 'Тест', byName: 'Сидоров Сидор', comment: kind === 'SUGGESTION_CLARIFICATION' ? 'Сколько это стоит?' : null });
    const subjects = (mails: { subject: string }[]) => mails.map((mail) => mail.subject);
    const ruMails = await mailsTo(t.db, ru.email);
    expect(subjects(ruMails)).toEqual([
      'Ваше предложение «Тест» одобрено',
      'Предложение «Тест» нужно уточнить',
      'Предложение «Тест» уточнено и отправлено снова',
      'Предложение «Тест» передано в ваше подразделение',
      'Осталось 2 дня на решение по предложению «Тест»',
      'Просроченное предложение «Тест» передано вам',
    ]);
    expect(ruMails[1]?.text_body).toContain('Вопрос: Сколько это стоит?');
    expect(ruMails[4]?.text_body).toContain('Предложение «Тест» ждёт вашего решения: осталось 2 дня.');
    expect(subjects(await mailsTo(t.db, en.email))).toEqual([
      'Your proposal “Тест” is approved',
      'Your proposal “Тест” needs clarification',
      'Proposal “Тест” clarified and sent again',
      'Proposal “Тест” passed to your department',
      '2 days left to decide on “Тест”',
      'Overdue proposal “Тест” is now yours to decide',
    ]);
  });

  it('words each goal and project kind in both languages, with the link to the goal or the project', async () => {
    const ru = await recipient('ru');
    const en = await recipient('en');
    const goalId = randomUUID();
    const projectId = randomUUID();
    const goalKinds: NotificationKind[] = ['GOAL_ASSIGNED', 'GOAL_TO_WORK', 'GOAL_CLARIFICATION', 'GOAL_APPROVED'];
    const projectKinds: NotificationKind[] = ['PROJECT_CREATED', 'PROJECT_CALCULATING', 'PROJECT_CALCULATED', 'PROJECT_APPROVED', 'PROJECT_FOR_REVISION', 'PROJECT_REPORT_DUE', 'PROJECT_REPORT_OVERDUE'];
    const comments: Partial<Record<NotificationKind, string>> = { GOAL_CLARIFICATION: 'Какой участок?', PROJECT_FOR_REVISION: 'Нет расчёта затрат' };
    for (const kind of [...goalKinds, ...projectKinds]) {
      const isGoal = goalKinds.includes(kind);
      const params = { title: 'Тест', byName: 'Сидоров Сидор', comment: comments[kind] ?? null, dueDate: kind.startsWith('PROJECT_REPORT') ? '2026-06-01' : null };
      await t.db.transaction((tx) =>
        notify(tx, { companyId: acme.companyId, userIds: [ru.id, en.id], kind, suggestionId: null, goalId: isGoal ? goalId : null, projectId: isGoal ? null : projectId, params }, clock.now()),
      );
    }
    const subjects = (mails: { subject: string }[]) => mails.map((mail) => mail.subject);
    const ruMails = await mailsTo(t.db, ru.email);
    expect(subjects(ruMails)).toEqual([
      'Вам поставлена цель «Тест»',
      'Цель «Тест» взята в работу',
      'Цель «Тест» нужно уточнить',
      'Цель «Тест» утверждена',
      'Вы руководитель проекта «Тест»',
      'Проект «Тест» передан на расчёт',
      'Проект «Тест» ждёт утверждения',
      'Ваш проект «Тест» утверждён',
      'Проект «Тест» возвращён на доработку',
      'Сегодня срок отчёта по проекту «Тест»',
      'Отчёт по проекту «Тест» просрочен',
    ]);
    const goalLink = `http://app.test/companies/${acme.companyId}/goals/${goalId}`;
    const projectLink = `http://app.test/companies/${acme.companyId}/projects/${projectId}`;
    expect(ruMails.map((mail) => mail.link)).toEqual([...goalKinds.map(() => goalLink), ...projectKinds.map(() => projectLink)]);
    expect(ruMails[0]?.text_body).toContain(`Открыть цель: ${goalLink}`);
    expect(ruMails[2]?.text_body).toContain('Вопрос: Какой участок?');
    expect(ruMails[8]?.text_body).toContain('Причина: Нет расчёта затрат');
    expect(ruMails[8]?.text_body).toContain(`Открыть проект: ${projectLink}`);
    expect(ruMails[9]?.text_body).toContain('Сегодня, 1 июня 2026 г., срок отчёта по показателям проекта «Тест».');
    expect(ruMails[10]?.text_body).toContain('Отчёт по показателям проекта «Тест» нужно было внести 1 июня 2026 г., но его всё ещё нет.');
    expect(ruMails[4]?.text_body).toContain('участвуете в работе с целями и проектами в компании «ООО «Акме»»');
    const enMails = await mailsTo(t.db, en.email);
    expect(subjects(enMails)).toEqual([
      'Goal “Тест” is set for you',
      'Goal “Тест” is taken to work',
      'Goal “Тест” needs clarification',
      'Goal “Тест” is approved',
      'You manage the project “Тест”',
      'Project “Тест” to calculate',
      'Project “Тест” to approve',
      'Your project “Тест” is approved',
      'Your project “Тест” is returned for revision',
      'The indicator report on “Тест” is due today',
      'The indicator report on “Тест” is overdue',
    ]);
    expect(enMails[8]?.text_body).toContain('Reason: Нет расчёта затрат');
    expect(enMails[9]?.text_body).toContain('is due today, 1 June 2026.');
    expect(enMails[6]?.text_body).toContain(`Open the project: ${projectLink}`);
  });

  it('words each registry kind in both languages, with the link to the approval page or the registry', async () => {
    const ru = await recipient('ru');
    const en = await recipient('en');
    const registryId = randomUUID();
    const kinds: NotificationKind[] = ['REGISTRY_SENT', 'REGISTRY_APPROVED', 'REGISTRY_RETURNED'];
    for (const kind of kinds) {
      const params = { number: '7', byName: 'Сидоров Сидор', comment: kind === 'REGISTRY_RETURNED' ? 'Пересчитайте проект 2' : kind === 'REGISTRY_APPROVED' ? 'Согласовано' : null };
      await t.db.transaction((tx) => notify(tx, { companyId: acme.companyId, userIds: [ru.id, en.id], kind, suggestionId: null, registryId, params }, clock.now()));
    }
    const approveLink = `http://app.test/companies/${acme.companyId}/registry-approve?id=${registryId}`;
    const registryLink = `http://app.test/companies/${acme.companyId}/registry`;
    const ruMails = await mailsTo(t.db, ru.email);
    expect(ruMails.map((mail) => mail.subject)).toEqual(['Реестр № 7 ждёт вашего утверждения', 'Реестр № 7 утверждён', 'Реестр № 7 возвращён']);
    expect(ruMails.map((mail) => mail.link)).toEqual([approveLink, registryLink, registryLink]);
    expect(ruMails[0]?.text_body).toContain('Сидоров Сидор направил(а) вам на утверждение реестр № 7');
    expect(ruMails[0]?.text_body).toContain(`Открыть реестр: ${approveLink}`);
    expect(ruMails[0]?.html_body).toContain(`href="${approveLink}"`);
    expect(ruMails[1]?.text_body).toContain('Сидоров Сидор утвердил(а) реестр № 7; его показатели теперь окончательные.');
    expect(ruMails[1]?.text_body).toContain('Комментарий: Согласовано');
    expect(ruMails[2]?.text_body).toContain('Сидоров Сидор вернул(а) реестр № 7; его проекты снова в открытом реестре.');
    expect(ruMails[2]?.text_body).toContain('Причина: Пересчитайте проект 2');
    expect(ruMails[2]?.text_body).toContain(`Открыть реестр: ${registryLink}`);
    const enMails = await mailsTo(t.db, en.email);
    expect(enMails.map((mail) => mail.subject)).toEqual(['Registry No. 7 to approve', 'Registry No. 7 is approved', 'Registry No. 7 is returned']);
    expect(enMails.map((mail) => mail.link)).toEqual([approveLink, registryLink, registryLink]);
    expect(enMails[0]?.text_body).toContain('Сидоров Сидор sent registry No. 7 for your approval');
    expect(enMails[0]?.text_body).toContain(`Open the registry: ${approveLink}`);
    expect(enMails[1]?.text_body).toContain('Comment: Согласовано');
    expect(enMails[2]?.text_body).toContain('Reason: Пересчитайте проект 2');
  });

  it('sends nothing instantly to a digest reader, and nothing to the actor', async () => {
    const digest = await recipient('ru', 'digest');
    const actor = await recipient('ru');
    await t.db.transaction((tx) =>
      notify(tx, { companyId: acme.companyId, userIds: [digest.id, actor.id], actorId: actor.id, kind: 'SUGGESTION_APPROVED', suggestionId: randomUUID(), params: { title: 'X', byName: 'Y' } }, clock.now()),
    );
    expect(await mailsTo(t.db, digest.email)).toEqual([]);
    expect(await mailsTo(t.db, actor.email)).toEqual([]);
    expect(await mailedAt(digest.id)).toEqual([{ mailed_at: null }]);
    expect(await mailedAt(actor.id)).toEqual([]);
  });

  it('mails nothing when the change that notified rolled back', async () => {
    const user = await recipient('en');
    await expect(
      t.db.transaction(async (tx) => {
        await notify(tx, { companyId: acme.companyId, userIds: [user.id], kind: 'SUGGESTION_APPROVED', suggestionId: randomUUID(), params: { title: 'X' } }, clock.now());
        throw new Error('the decision failed');
      }),
    ).rejects.toThrow('the decision failed');
    expect(await mailsTo(t.db, user.email)).toEqual([]);
  });
});

describe('daily digest', () => {
  it('mails what waits in one digest, grouped by company and newest first, once a day, never twice', async () => {
    const user = await recipient('en', 'digest', { first: 'Dana', middle: '', last: 'Digest' });
    const instant = await recipient('en');
    const first = await send([user.id, instant.id], 'SUGGESTION_SUBMITTED', { title: 'Oldest', byName: 'A' });
    clock.advance(60_000);
    const second = await send([user.id], 'SUGGESTION_REJECTED', { title: 'Middle', byName: 'B', comment: 'No budget' }, { companyId: rival.companyId });
    clock.advance(60_000);
    const third = await send([user.id], 'SUGGESTION_APPROVED', { title: 'Newest', byName: 'C' });
    expect(await mailsTo(t.db, user.email)).toEqual([]);

    clock.advance(HOUR);
    const [digest, ...more] = await mailsTo(t.db, user.email);
    expect(more).toEqual([]);
    expect(digest?.subject).toBe('3 new notifications about proposals');
    expect(digest?.kind).toBe('digest');
    expect(digest?.link).toBe('http://app.test/notifications');
    const text = digest?.text_body ?? '';
    // Acme has the newest news, so it leads; within it the newest first.
    const order = ['ООО «Акме»', 'Your proposal “Newest” is approved', 'New proposal to decide: “Oldest”', 'Rival Ltd', 'Your proposal “Middle” is rejected'].map((s) => text.indexOf(s));
    expect(order.every((position) => position >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('Reason: No budget');
    for (const [companyId, id] of [[acme.companyId, first], [rival.companyId, second], [acme.companyId, third]]) {
      expect(text).toContain(`http://app.test/companies/${companyId}/suggestions/${id}`);
      expect(digest?.html_body).toContain(`href="http://app.test/companies/${companyId}/suggestions/${id}"`);
    }
    expect((await mailedAt(user.id)).every((row) => row.mailed_at !== null)).toBe(true);
    // The instant reader had theirs at once, and is in no digest.
    expect((await mailsTo(t.db, instant.email)).map((mail) => mail.kind)).toEqual(['notification']);

    // Something new within the day waits for the next digest; the mailed ones are not mailed again.
    await send([user.id], 'SUGGESTION_REMINDER', { title: 'Later', dueAt: null });
    clock.advance(2 * HOUR);
    expect(await mailsTo(t.db, user.email)).toHaveLength(1);
    clock.advance(DIGEST_INTERVAL_MS);
    const mails = await mailsTo(t.db, user.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.subject).toBe('1 new notification about proposals');
    expect(mails[1]?.text_body).toContain('2 days left to decide on “Later”');
    expect(mails[1]?.text_body).not.toContain('Oldest');
    // Nothing waits: no empty digest.
    clock.advance(DIGEST_INTERVAL_MS);
    expect(await mailsTo(t.db, user.email)).toHaveLength(2);
  });

  it('writes one digest in Russian when two runners pass at once', async () => {
    const user = await recipient('ru', 'digest');
    for (const title of ['Один', 'Два', 'Три']) await send([user.id], 'SUGGESTION_APPROVED', { title, byName: 'Б' });
    const second = await openSameDatabase(database);
    try {
      const now = clock.now();
      const counts = await Promise.all([runDigestPass(t.db, 'http://app.test', now), runDigestPass(second.db, 'http://app.test', now)]);
      expect(counts.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1);
    } finally {
      await second.close();
    }
    const mails = await mailsTo(t.db, user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe('3 новых уведомления о предложениях');
    expect(mails[0]?.text_body).toContain('Вот что произошло с момента прошлой сводки');
  });

  it('sends what waits in one last digest when the reader switches back to instant mail, then mails each event', async () => {
    const switcher = await signUpMember(t);
    await createCompany(t.db, 'Switch Co', { [switcher.id]: ['EMPLOYEE'] });
    const toDigest = await t.app.inject({ method: 'PATCH', url: api('/user'), headers: headers(switcher), payload: { notificationMail: 'digest', locale: 'en' } });
    expect(toDigest.statusCode, toDigest.body).toBe(200);
    const before = (await mailsTo(t.db, switcher.email)).length;
    await send([switcher.id], 'SUGGESTION_APPROVED', { title: 'First', byName: 'A' });
    await send([switcher.id], 'SUGGESTION_REJECTED', { title: 'Second', byName: 'B', comment: 'No' });
    expect(await mailsTo(t.db, switcher.email)).toHaveLength(before);

    const back = await t.app.inject({ method: 'PATCH', url: api('/user'), headers: headers(switcher), payload: { notificationMail: 'instant' } });
    expect(back.statusCode, back.body).toBe(200);
    const afterSwitch = (await mailsTo(t.db, switcher.email)).slice(before);
    expect(afterSwitch.map((mail) => mail.subject)).toEqual(['2 new notifications about proposals']);
    await send([switcher.id], 'SUGGESTION_APPROVED', { title: 'Third', byName: 'C' });
    clock.advance(DIGEST_INTERVAL_MS);
    expect((await mailsTo(t.db, switcher.email)).slice(before).map((mail) => mail.subject)).toEqual([
      '2 new notifications about proposals',
      'Your proposal “Third” is approved',
    ]);
  });
});

describe('POST /companies/:companyId/notifications/read', () => {
  const idsOf = async (userId: string, companyId = acme.companyId) =>
    (await t.db.query<{ id: string }>('SELECT id FROM notifications WHERE user_id = $1 AND company_id = $2 ORDER BY created_at, id', [userId, companyId])).map((row) => row.id);
  const readAt = async (ids: string[]) =>
    t.db.query<{ id: string; read_at: Date | null }>('SELECT id, read_at FROM notifications WHERE id = ANY($1::uuid[]) ORDER BY id', [ids]);

  it("marks the caller's own notifications read and silently ignores others'", async () => {
    await send([reader.id, colleague.id], 'SUGGESTION_APPROVED', { title: 'Mine', byName: 'X' });
    await send([reader.id], 'SUGGESTION_REJECTED', { title: 'Mine too', byName: 'X', comment: 'No' });
    const own = await idsOf(reader.id);
    const others = await idsOf(colleague.id);
    const response = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${acme.companyId}/notifications/read`),
      headers: { ...headers(reader), 'idempotency-key': randomUUID() },
      payload: { ids: [...own, ...others, randomUUID()] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response).data).toEqual({ read: own.length });
    expect((await readAt(own)).every((row) => row.read_at?.getTime() === clock.now().getTime())).toBe(true);
    expect((await readAt(others)).every((row) => row.read_at === null)).toBe(true);
  });

  it('answers 404 for another company, 400 for a bad body, and a replay through a push batch is the stored answer', async () => {
    await send([reader.id], 'SUGGESTION_APPROVED', { title: 'Pushed', byName: 'X' });
    const id = (await t.db.one<{ id: string }>(`SELECT id FROM notifications WHERE user_id = $1 AND params->>'title' = 'Pushed'`, [reader.id]))!.id;
    const foreign = await t.app.inject({ method: 'POST', url: api(`/companies/${rival.companyId}/notifications/read`), headers: headers(reader), payload: { ids: [id] } });
    expect(foreign.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url: api(`/companies/${acme.companyId}/notifications/read`), headers: headers(reader), payload: { ids: [] } });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).errors).toHaveProperty('ids');

    const operation = { id: randomUUID(), method: 'POST', path: `/api/v1/companies/${acme.companyId}/notifications/read`, body: { ids: [id] } };
    const push = () => t.app.inject({ method: 'POST', url: api('/sync/push'), headers: headers(reader), payload: { operations: [operation] } });
    const first = json<{ data: { results: { status: number; body: unknown }[] } }>(await push());
    expect(first.data.results[0]).toMatchObject({ status: 200, body: { data: { read: 1 } } });
    clock.advance(60_000);
    const again = json<{ data: { results: { status: number; body: unknown }[] } }>(await push());
    expect(again.data.results).toEqual(first.data.results);
    // The same key sent directly is the same request: the stored answer, and read_at kept from the first time.
    const direct = await t.app.inject({
      method: 'POST',
      url: api(`/companies/${acme.companyId}/notifications/read`),
      headers: { ...headers(reader), 'idempotency-key': operation.id },
      payload: { ids: [id] },
    });
    expect(direct.statusCode).toBe(200);
    expect(json(direct).data).toEqual({ read: 1 });
    expect((await readAt([id]))[0]?.read_at?.getTime()).toBe(clock.now().getTime() - 60_000);
  });
});

describe('GET /companies/:companyId/notifications', () => {
  it("lists the caller's own, newest first, by cursor, and only the unread ones on request", async () => {
    const lister = await signUpMember(t);
    const company = await createCompany(t.db, 'Lister Co', { [lister.id]: ['EMPLOYEE'], [colleague.id]: ['EMPLOYEE'] });
    // Several in one instant, as the deadline job writes them.
    await t.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i += 1) {
        await notify(tx, { companyId: company.companyId, userIds: [lister.id, colleague.id], kind: 'SUGGESTION_REMINDER', suggestionId: randomUUID(), params: { title: `N${i}` } }, clock.now());
      }
    });
    clock.advance(1000);
    await t.db.transaction((tx) => notify(tx, { companyId: company.companyId, userIds: [lister.id], kind: 'SUGGESTION_ESCALATED', suggestionId: null, params: { title: 'Last' } }, clock.now()));
    const list = async (query: string) => {
      const items: NotificationRow[] = [];
      let cursor: string | null = null;
      do {
        const response: LightMyRequestResponse = await t.app.inject({ method: 'GET', url: api(`/companies/${company.companyId}/notifications?limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`), headers: headers(lister) });
        expect(response.statusCode, response.body).toBe(200);
        const body: { data: { items: NotificationRow[]; nextCursor: string | null } } = json(response);
        items.push(...body.data.items);
        cursor = body.data.nextCursor;
      } while (cursor);
      return items;
    };
    const all = await list('');
    expect(all).toHaveLength(6);
    expect(new Set(all.map((n) => n.id)).size).toBe(6);
    expect(all[0]).toMatchObject({ kind: 'SUGGESTION_ESCALATED', params: { title: 'Last' }, userId: lister.id, readAt: null, suggestionId: null });
    expect(all.every((n) => n.userId === lister.id)).toBe(true);
    const created = all.map((n) => Date.parse(n.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);

    const read = await t.app.inject({ method: 'POST', url: api(`/companies/${company.companyId}/notifications/read`), headers: headers(lister), payload: { ids: all.slice(0, 2).map((n) => n.id) } });
    expect(read.statusCode).toBe(200);
    expect((await list('unread=true')).map((n) => n.id)).toEqual(all.slice(2).map((n) => n.id));

    const badCursor = await t.app.inject({ method: 'GET', url: api(`/companies/${company.companyId}/notifications?cursor=nonsense`), headers: headers(lister) });
    expect(badCursor.statusCode).toBe(400);
    const foreign = await t.app.inject({ method: 'GET', url: api(`/companies/${company.companyId}/notifications`), headers: headers(outsider) });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('the mail setting', () => {
  it('answers notificationMail on GET /user and changes it with PATCH /user', async () => {
    const get = async () => json<{ data: { notificationMail: string } }>(await t.app.inject({ method: 'GET', url: api('/user'), headers: headers(colleague) })).data;
    expect((await get()).notificationMail).toBe('instant');
    const patched = await t.app.inject({ method: 'PATCH', url: api('/user'), headers: headers(colleague), payload: { notificationMail: 'digest' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(json<{ data: { notificationMail: string } }>(patched).data.notificationMail).toBe('digest');
    expect((await get()).notificationMail).toBe('digest');
    const bad = await t.app.inject({ method: 'PATCH', url: api('/user'), headers: headers(colleague), payload: { notificationMail: 'weekly' } });
    expect(bad.statusCode).toBe(400);
    expect(json(bad).errors).toHaveProperty('notificationMail');
    expect((await get()).notificationMail).toBe('digest');
  });
});
