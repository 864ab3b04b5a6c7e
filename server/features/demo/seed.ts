// Demo data of DESIGN.md: one login per role (password `demo1234`, e-mails verified) in the demo
// company "ООО «Демо Завод»". Idempotent: logins that already exist are left as they are, so it can
// run at every start and grow with later issues.

import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database';
import { hashPassword } from '../../auth/passwords';
import { authorityOf } from '../../auth/users';
import { translate } from '../../i18n/messages';
import {
  SUGGESTION_DUE_DAYS,
  SUGGESTION_ESCALATION_STEP_DAYS,
  SUGGESTION_REMINDER_DAY,
  type SuggestionHistoryEntry,
} from '../../../src/domain/suggestion';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_COMPANY = { name: 'ООО «Демо Завод»', inn: '7712345671' } as const;

export interface DemoLogin {
  email: string;
  role: string;
  lastName: string;
  firstName: string;
  middleName: string;
  position: string;
  otherPosition?: string;
  /** What the login is for, printed at start. */
  label: string;
}

export const DEMO_LOGINS: readonly DemoLogin[] = [
  { email: 'owner@demo.local', role: 'OWNER', lastName: 'Соколов', firstName: 'Андрей', middleName: 'Викторович', position: 'OWNER', label: 'owner' },
  { email: 'ceo@demo.local', role: 'CEO', lastName: 'Кузнецова', firstName: 'Елена', middleName: 'Сергеевна', position: 'GENERAL_DIRECTOR', label: 'CEO' },
  { email: 'findir@demo.local', role: 'FINANCIAL_DIRECTOR', lastName: 'Морозов', firstName: 'Игорь', middleName: 'Павлович', position: 'FINANCIAL_DIRECTOR', label: 'financial director' },
  { email: 'finspec@demo.local', role: 'FINANCIAL_SPECIALIST', lastName: 'Волкова', firstName: 'Марина', middleName: 'Андреевна', position: 'OTHER', otherPosition: 'Финансовый аналитик', label: 'financial specialist' },
  { email: 'direction@demo.local', role: 'DIRECTION_MANAGER', lastName: 'Лебедев', firstName: 'Дмитрий', middleName: 'Олегович', position: 'DEPUTY_DIRECTOR', label: 'direction manager' },
  { email: 'head@demo.local', role: 'MIDDLE_MANAGER', lastName: 'Новиков', firstName: 'Сергей', middleName: 'Иванович', position: 'OTHER', otherPosition: 'Начальник производства', label: 'head of production' },
  { email: 'hr@demo.local', role: 'HR', lastName: 'Павлова', firstName: 'Ольга', middleName: 'Николаевна', position: 'HR_DIRECTOR', label: 'HR' },
  { email: 'employee@demo.local', role: 'EMPLOYEE', lastName: 'Смирнов', firstName: 'Алексей', middleName: 'Петрович', position: 'OTHER', otherPosition: 'Оператор станка с ЧПУ', label: 'employee' },
  { email: 'admin@demo.local', role: 'ADMIN', lastName: 'Орлова', firstName: 'Наталья', middleName: 'Михайловна', position: 'OTHER', otherPosition: 'Администратор платформы', label: 'platform admin' },
];

/** Creates the missing demo logins, then the demo company; returns how many logins were created. */
export async function seedDemo(db: Database, scryptLogN: number): Promise<number> {
  const created = await seedDemoLogins(db, scryptLogN);
  await seedDemoCompany(db);
  return created;
}

/** The demo logins' users present in the database, by lower-cased e-mail (their spelling in DEMO_LOGINS). */
function demoUsers(db: Queryable) {
  return db.kysely
    .selectFrom('users')
    .select((eb) => ['id', eb.fn<string>('lower', ['email']).as('email'), 'role', 'first_name', 'last_name', 'middle_name', 'other_position'])
    .where((eb) => eb(eb.fn<string>('lower', ['email']), 'in', DEMO_LOGINS.map((l) => l.email)))
    .execute();
}

async function seedDemoLogins(db: Database, scryptLogN: number): Promise<number> {
  const existing = new Set((await demoUsers(db)).map((r) => r.email));
  const missing = DEMO_LOGINS.filter((l) => !existing.has(l.email));
  if (missing.length === 0) return 0;
  // One at a time: each scrypt hash holds 128 MiB while it runs, and nine at once at a first start left the
  // embedded server's memory well above its idle size (docs/benchmarks.md, "Server memory").
  const hashes: string[] = [];
  for (const _login of missing) hashes.push(await hashPassword(DEMO_PASSWORD, scryptLogN));
  let created = 0;
  await db.transaction(async (tx) => {
    for (const [i, login] of missing.entries()) {
      const rows = await tx.kysely
        .insertInto('users')
        .values((eb) => ({
          email: login.email,
          password_hash: hashes[i] ?? '',
          first_name: login.firstName,
          last_name: login.lastName,
          middle_name: login.middleName,
          position: login.position,
          other_position: login.otherPosition ?? null,
          phone: `+7 (495) 000-00-${String(i + 10).padStart(2, '0')}`,
          registration_company: DEMO_COMPANY.name,
          registration_inn: DEMO_COMPANY.inn,
          main_goal: login.role === 'OWNER' ? 'COST_REDUCTION' : null,
          role: login.role,
          authorities: [authorityOf(login.role)],
          locale: 'ru',
          email_verified_at: eb.fn<Date>('now'),
        }))
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();
      created += rows.length;
    }
  });
  return created;
}

/** The demo logins present in the database, for the start-up banner. */
export async function listDemoLogins(db: Database): Promise<DemoLogin[]> {
  const present = new Set((await demoUsers(db)).map((r) => r.email));
  return DEMO_LOGINS.filter((l) => present.has(l.email));
}

export const DEMO_DEPARTMENTS = ['Производство', 'Логистика', 'Качество', 'Бухгалтерия', 'Отдел кадров'] as const;

/** Company roles of each demo login (admin is a platform role, not a member). */
const DEMO_MEMBER_DEPARTMENT: Record<string, string> = {
  'head@demo.local': 'Производство',
  'employee@demo.local': 'Производство',
  'hr@demo.local': 'Отдел кадров',
  'findir@demo.local': 'Бухгалтерия',
  'finspec@demo.local': 'Бухгалтерия',
  'direction@demo.local': 'Производство',
};

const LAST_NAMES = ['Иванов', 'Петров', 'Сидоров', 'Козлов', 'Попов', 'Васильев', 'Зайцев', 'Федоров', 'Михайлов', 'Белов', 'Тарасов', 'Беляев', 'Комаров', 'Орлов', 'Киселев', 'Макаров', 'Андреев', 'Ковалев', 'Ильин', 'Гусев', 'Титов'];
const FIRST_NAMES = ['Александр', 'Михаил', 'Николай', 'Павел', 'Роман', 'Виктор', 'Юрий', 'Константин', 'Артём', 'Григорий', 'Евгений', 'Максим', 'Владимир', 'Олег'];
const MIDDLE_NAMES = ['Александрович', 'Иванович', 'Петрович', 'Сергеевич', 'Николаевич', 'Андреевич', 'Владимирович'];
const POSITIONS_BY_DEPARTMENT: Record<string, string[]> = {
  Производство: ['Оператор станка с ЧПУ', 'Слесарь-сборщик', 'Мастер участка', 'Токарь', 'Наладчик оборудования'],
  Логистика: ['Кладовщик', 'Водитель погрузчика', 'Логист'],
  Качество: ['Контролёр ОТК', 'Инженер по качеству'],
  Бухгалтерия: ['Бухгалтер', 'Экономист'],
  'Отдел кадров': ['Специалист по кадрам'],
};

/** A notification of the demo data: its recipient and kind; when and about what follow from its proposal. */
interface DemoNotice {
  to: string;
  kind: 'SUGGESTION_SUBMITTED' | 'SUGGESTION_APPROVED' | 'SUGGESTION_REJECTED' | 'SUGGESTION_CLARIFICATION' | 'SUGGESTION_REMINDER' | 'SUGGESTION_ESCALATED';
}

interface DemoSuggestion {
  author: string;
  department: string;
  title: string;
  problem: string;
  solution: string;
  effect: string;
  amountMinor: number | null;
  status: 'UNDER_CONSIDERATION' | 'CLARIFICATION' | 'APPROVED' | 'REJECTED';
  /** Received this many days ago: due 5 days later, so more than 5 is overdue (and escalated, as the deadline job would have). */
  daysAgo: number;
  /** Who decided (or asked the question): the head of its department, the CEO where the department has none. */
  decidedBy?: string;
  /** The reason, the decision's comment, or the question asked. */
  comment?: string;
  notices?: readonly DemoNotice[];
}

const HEAD = 'head@demo.local';
const CEO = 'ceo@demo.local';
const EMPLOYEE = 'employee@demo.local';

/**
 * The review loop in every state: employee@'s proposals wait on head@ with due dates spread over the coming
 * days (one due tomorrow, reminded; one overdue and escalated to the CEO), one waits on the author's
 * clarification, others are decided with a reason and who decided; both logins have unread notifications.
 */
const DEMO_SUGGESTIONS: readonly DemoSuggestion[] = [
  { author: EMPLOYEE, department: 'Производство', title: 'Магнитные держатели для инструмента у станков', problem: 'Операторы ищут ключи и щупы по всему участку, до 15 минут в смену.', solution: 'Закрепить магнитные планки у каждого станка и разметить места инструмента.', effect: 'Экономия 15 минут на оператора в смену.', amountMinor: 18000000, status: 'UNDER_CONSIDERATION', daysAgo: 1, notices: [{ to: HEAD, kind: 'SUGGESTION_SUBMITTED' }] },
  { author: EMPLOYEE, department: 'Производство', title: 'Стеллаж для заготовок у токарного участка', problem: 'Заготовки везут со склада по одной партии, токари ждут подвоза.', solution: 'Поставить у участка стеллаж на сменный запас заготовок.', effect: 'Меньше простоев в ожидании заготовок.', amountMinor: 6000000, status: 'UNDER_CONSIDERATION', daysAgo: 2, notices: [{ to: HEAD, kind: 'SUGGESTION_SUBMITTED' }] },
  { author: EMPLOYEE, department: 'Производство', title: 'Световой сигнал окончания цикла на станках', problem: 'Оператор не видит, что станок закончил цикл, и станок простаивает.', solution: 'Поставить на каждый станок сигнальную колонну, загорающуюся по окончании цикла.', effect: 'Простой между циклами меньше на 10 %.', amountMinor: 35000000, status: 'UNDER_CONSIDERATION', daysAgo: 4, notices: [{ to: HEAD, kind: 'SUGGESTION_REMINDER' }] },
  { author: EMPLOYEE, department: 'Производство', title: 'Подогрев СОЖ зимой', problem: 'Утром холодная СОЖ даёт брак первых деталей.', solution: 'Установить таймер включения подогрева бака за час до смены.', effect: 'Меньше брака в начале смены.', amountMinor: null, status: 'UNDER_CONSIDERATION', daysAgo: 6, notices: [{ to: CEO, kind: 'SUGGESTION_ESCALATED' }] },
  { author: EMPLOYEE, department: 'Производство', title: 'Общий график переналадок на неделю', problem: 'Переналадки планируют в день работы, наладчики не успевают.', solution: 'Составлять график переналадок на неделю вперёд и вывесить его на участке.', effect: 'Меньше срочных переналадок.', amountMinor: null, status: 'CLARIFICATION', daysAgo: 3, decidedBy: HEAD, comment: 'Кто будет составлять график и по каким заказам: только серийным или всем?', notices: [{ to: EMPLOYEE, kind: 'SUGGESTION_CLARIFICATION' }] },
  { author: EMPLOYEE, department: 'Логистика', title: 'Разметка зон на складе заготовок', problem: 'Погрузчики теряют время на поиск паллет.', solution: 'Разметить зоны краской и подписать стеллажи.', effect: 'Быстрее отгрузка на участки.', amountMinor: 9500000, status: 'UNDER_CONSIDERATION', daysAgo: 3 },
  { author: HEAD, department: 'Производство', title: 'Плановое ТО по наработке, а не по календарю', problem: 'Станки встают на ТО, когда в этом нет нужды, и ломаются между ТО.', solution: 'Вести счётчики моточасов и планировать ТО по ним.', effect: 'Меньше простоев оборудования.', amountMinor: 120000000, status: 'APPROVED', daysAgo: 20, decidedBy: CEO, comment: 'Берём в работу, начнём с участка токарной обработки.' },
  { author: EMPLOYEE, department: 'Производство', title: 'Маркировка кабелей на пультах станков', problem: 'Наладчики подолгу ищут нужный кабель при ремонте.', solution: 'Промаркировать кабели бирками по схеме.', effect: 'Ремонт пультов быстрее.', amountMinor: 1500000, status: 'APPROVED', daysAgo: 9, decidedBy: HEAD, comment: 'Согласовано, бирки закажем в этом месяце.', notices: [{ to: EMPLOYEE, kind: 'SUGGESTION_APPROVED' }] },
  { author: EMPLOYEE, department: 'Качество', title: 'Шаблоны для контроля фасок', problem: 'Фаски меряют штангенциркулем, медленно и с ошибками.', solution: 'Сделать простые шаблоны «проходит/не проходит».', effect: 'Контроль быстрее в три раза.', amountMinor: 3000000, status: 'APPROVED', daysAgo: 15, decidedBy: CEO, comment: 'Хорошая идея, шаблоны заказаны.' },
  { author: EMPLOYEE, department: 'Бухгалтерия', title: 'Электронные путевые листы', problem: 'Бумажные путевые листы теряются.', solution: 'Перейти на электронные путевые листы.', effect: 'Меньше бумажной работы.', amountMinor: null, status: 'REJECTED', daysAgo: 30, decidedBy: CEO, comment: 'Сейчас не позволяет учётная система, вернёмся в следующем году.' },
  { author: EMPLOYEE, department: 'Производство', title: 'Второй заточной станок на участок', problem: 'К заточному станку очередь в начале смены.', solution: 'Купить второй заточной станок.', effect: 'Нет очереди на заточку.', amountMinor: 40000000, status: 'REJECTED', daysAgo: 7, decidedBy: HEAD, comment: 'Очередь бывает только в первые полчаса: сдвинем заточку на конец предыдущей смены.', notices: [{ to: EMPLOYEE, kind: 'SUGGESTION_REJECTED' }] },
  { author: 'hr@demo.local', department: 'Отдел кадров', title: 'Наставничество для новых операторов', problem: 'Новички долго выходят на норму выработки.', solution: 'Закрепить за каждым новичком наставника на первый месяц.', effect: 'Выход на норму за 3 недели вместо 6.', amountMinor: 45000000, status: 'UNDER_CONSIDERATION', daysAgo: 6 },
  { author: 'findir@demo.local', department: 'Логистика', title: 'Объединение закупок расходников', problem: 'Каждый участок заказывает перчатки и ветошь отдельно.', solution: 'Раз в месяц собирать общую заявку.', effect: 'Скидка поставщика 7 %.', amountMinor: 25000000, status: 'REJECTED', daysAgo: 12, decidedBy: CEO, comment: 'Не подходит: склад не вместит месячный запас.' },
];

/**
 * The demo company with departments, about 50 employees, the demo logins as members, proposals in every status
 * of the review loop and a few unread notifications.
 */
export async function seedDemoCompany(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    const exists = await tx.kysely.selectFrom('companies').select('id').where('inn', '=', DEMO_COMPANY.inn).executeTakeFirst();
    if (exists) return;
    const users = await demoUsers(tx);
    const byEmail = new Map(users.map((u) => [u.email, u]));
    const owner = byEmail.get('owner@demo.local');
    const company = await tx.kysely
      .insertInto('companies')
      .values({
        name: DEMO_COMPANY.name,
        inn: DEMO_COMPANY.inn,
        kpp: '771201001',
        legal_form: 'LEGAL_ENTITY',
        website: 'https://demo-zavod.example',
        employee_count: 50,
        verification_status: 'VERIFIED',
        created_by: owner?.id ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const departments = new Map<string, string>();
    for (const name of DEMO_DEPARTMENTS) {
      const head = name === 'Производство' ? (byEmail.get('head@demo.local')?.id ?? null) : name === 'Отдел кадров' ? (byEmail.get('hr@demo.local')?.id ?? null) : null;
      const row = await tx.kysely.insertInto('departments').values({ company_id: company.id, name, head_user_id: head }).returning('id').executeTakeFirstOrThrow();
      departments.set(name, row.id);
    }
    let number = 0;
    const serviceNumber = () => `Т-${String(++number).padStart(4, '0')}`;
    for (const login of DEMO_LOGINS) {
      const user = byEmail.get(login.email);
      if (!user || login.role === 'ADMIN') continue;
      await tx.kysely.insertInto('company_members').values({ company_id: company.id, user_id: user.id, roles: [login.role] }).execute();
      await tx.kysely
        .insertInto('employees')
        .values({
          company_id: company.id,
          user_id: user.id,
          last_name: user.last_name,
          first_name: user.first_name,
          middle_name: user.middle_name,
          position: user.other_position ?? translate('ru', `enum.position.${login.position}`),
          email: login.email,
          service_number: serviceNumber(),
          department_id: departments.get(DEMO_MEMBER_DEPARTMENT[login.email] ?? '') ?? null,
          roles: [login.role],
        })
        .execute();
    }
    const names = [...DEMO_DEPARTMENTS];
    for (let i = 0; number < 50; i++) {
      const department = names[i % 3 === 0 ? 0 : i % names.length] ?? 'Производство';
      const positions = POSITIONS_BY_DEPARTMENT[department] ?? ['Специалист'];
      await tx.kysely
        .insertInto('employees')
        .values({
          company_id: company.id,
          last_name: LAST_NAMES[i % LAST_NAMES.length] ?? 'Иванов',
          first_name: FIRST_NAMES[(i * 5) % FIRST_NAMES.length] ?? 'Иван',
          middle_name: MIDDLE_NAMES[(i * 3) % MIDDLE_NAMES.length] ?? null,
          position: positions[i % positions.length] ?? null,
          service_number: serviceNumber(),
          department_id: departments.get(department) ?? null,
          imported: true,
        })
        .execute();
    }
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const at = (ms: number) => new Date(ms).toISOString();
    const nameOf = (u: { last_name: string; first_name: string; middle_name: string | null }) => [u.last_name, u.first_name, u.middle_name].filter(Boolean).join(' ');
    const notifications: { company_id: string; user_id: string; kind: string; suggestion_id: string; params: string; created_at: string }[] = [];
    for (const s of DEMO_SUGGESTIONS) {
      const author = byEmail.get(s.author);
      const departmentId = departments.get(s.department);
      if (!author || !departmentId) continue;
      const id = randomUUID();
      const received = now - s.daysAgo * day;
      const due = received + SUGGESTION_DUE_DAYS * day;
      const decider = s.decidedBy ? byEmail.get(s.decidedBy) : undefined;
      const deciderName = decider ? nameOf(decider) : null;
      // Decided two days after receipt; a question asked two days after receipt, or at once for a fresh one.
      const decidedAt = received + Math.min(2, Math.max(0, s.daysAgo - 1)) * day;
      const history: SuggestionHistoryEntry[] = [{ at: at(received), kind: 'SUBMITTED', byUserId: author.id, byName: nameOf(author), comment: null }];
      const open = s.status === 'UNDER_CONSIDERATION';
      // What the deadline job would have done by now (server/features/suggestions/deadlines.ts).
      const remindedAt = open && now >= received + SUGGESTION_REMINDER_DAY * day ? received + SUGGESTION_REMINDER_DAY * day : null;
      const overdue = open && now >= due;
      const toOwnerAt = due + SUGGESTION_ESCALATION_STEP_DAYS * day;
      const level = overdue ? (now >= toOwnerAt ? 2 : 1) : 0;
      if (remindedAt !== null) history.push({ at: at(remindedAt), kind: 'REMINDED', byUserId: null, comment: null });
      if (overdue) {
        history.push({ at: at(due), kind: 'OVERDUE', byUserId: null, comment: null });
        history.push({ at: at(due), kind: 'ESCALATED', byUserId: null, comment: null, escalationLevel: 1 });
        if (level === 2) history.push({ at: at(toOwnerAt), kind: 'ESCALATED', byUserId: null, comment: null, escalationLevel: 2 });
      }
      if (!open && decider) {
        const kind = s.status === 'CLARIFICATION' ? 'CLARIFICATION_REQUESTED' : s.status === 'APPROVED' ? 'APPROVED' : 'REJECTED';
        history.push({ at: at(decidedAt), kind, byUserId: decider.id, byName: deciderName, comment: s.comment ?? null });
      }
      const escalatedAt = level === 2 ? toOwnerAt : overdue ? due : null;
      const updated = !open ? decidedAt : (escalatedAt ?? remindedAt ?? received);
      await tx.kysely
        .insertInto('suggestions')
        .values({
          company_id: company.id,
          id,
          title: s.title,
          problem: s.problem,
          solution: s.solution,
          expected_effect: s.effect,
          effect_amount_minor: s.amountMinor === null ? null : String(s.amountMinor),
          effect_currency: s.amountMinor === null ? null : 'RUB',
          department_id: departmentId,
          author_id: author.id,
          author_name: nameOf(author),
          status: s.status,
          due_at: at(due),
          submitted_at: at(received),
          received_at: at(received),
          review_comment: open ? null : (s.comment ?? null),
          decided_by: open ? null : (decider?.id ?? null),
          decided_by_name: open ? null : deciderName,
          decided_at: open || !decider ? null : at(decidedAt),
          clarification_at: s.status === 'CLARIFICATION' ? at(decidedAt) : null,
          reminded_at: remindedAt === null ? null : at(remindedAt),
          escalation_level: level,
          escalated_at: escalatedAt === null ? null : at(escalatedAt),
          overdue_at: overdue ? at(due) : null,
          history: JSON.stringify(history),
          created_at: at(received),
          updated_at: at(updated),
        })
        .execute();
      for (const notice of s.notices ?? []) {
        const to = byEmail.get(notice.to);
        if (!to) continue;
        const when = notice.kind === 'SUGGESTION_SUBMITTED' ? received : notice.kind === 'SUGGESTION_REMINDER' ? (remindedAt ?? received) : notice.kind === 'SUGGESTION_ESCALATED' ? (escalatedAt ?? due) : decidedAt;
        const byName = notice.kind === 'SUGGESTION_SUBMITTED' ? nameOf(author) : notice.kind === 'SUGGESTION_REMINDER' || notice.kind === 'SUGGESTION_ESCALATED' ? null : deciderName;
        const params = { title: s.title, byName, comment: open ? null : (s.comment ?? null), departmentName: s.department, dueAt: at(due) };
        notifications.push({ company_id: company.id, user_id: to.id, kind: notice.kind, suggestion_id: id, params: JSON.stringify(params), created_at: at(when) });
      }
    }
    // Unread; counted as mailed, since they stand for what happened before the demo started (no digest of them).
    if (notifications.length > 0) await tx.kysely.insertInto('notifications').values(notifications.map((n) => ({ ...n, mailed_at: n.created_at }))).execute();
  });
}
