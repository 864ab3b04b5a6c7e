// Demo data of DESIGN.md: one login per role (password `demo1234`, e-mails verified) in the demo
// company "ООО «Демо Завод»". Idempotent: logins that already exist are left as they are, so it can
// run at every start and grow with later issues. The company is written once, in one transaction: its people,
// proposals, goals, projects (approved ones with `approved_at` from their audit trail), registries (registries.ts)
// and EBITDA (ebitda.ts), every date counted back from the seed's clock.

import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database';
import { hashPassword } from '../../auth/passwords';
import { authorityOf } from '../../auth/users';
import { translate } from '../../i18n/messages';
import type { GoalHistoryEntry, GoalStatus } from '../../../src/domain/goal';
import { checkPayments, remunerationOf, splitEvenly } from '../../../src/domain/money';
import type { NotificationKind } from '../../../src/domain/notification';
import {
  addReportingPeriod,
  PROJECT_STATUSES,
  type EffectRepeatability,
  type ProjectHistoryEntry,
  type ProjectIndicatorReport,
  type ProjectStatus,
  type ProjectType,
  type ReportingFrequency,
} from '../../../src/domain/project';
import {
  SUGGESTION_DUE_DAYS,
  SUGGESTION_ESCALATION_STEP_DAYS,
  SUGGESTION_REMINDER_DAY,
  type Currency,
  type SuggestionHistoryEntry,
} from '../../../src/domain/suggestion';
import { seedDemoEbitda } from './ebitda';
import { seedDemoRegistries } from './registries';

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
  { author: EMPLOYEE, department: 'Производство', title: 'Быстросъёмные прижимы на фрезерных станках', problem: 'Закрепление детали винтовыми прижимами занимает до 5 минут на каждую деталь.', solution: 'Заменить винтовые прижимы на рычажные быстросъёмные.', effect: 'Установка детали за минуту вместо пяти.', amountMinor: 90000000, status: 'APPROVED', daysAgo: 40, decidedBy: HEAD, comment: 'Одобрено: начнём с двух фрезерных станков.' },
  { author: EMPLOYEE, department: 'Производство', title: 'Раздельный сбор стружки по маркам стали', problem: 'Стружку разных марок ссыпают в один контейнер и сдают по цене самой дешёвой.', solution: 'Поставить у станков контейнеры с маркировкой марок стали.', effect: 'Выручка от сдачи стружки выше на 30 %.', amountMinor: 60000000, status: 'APPROVED', daysAgo: 110, decidedBy: HEAD, comment: 'Поддерживаю, контейнеры есть на складе.' },
  { author: EMPLOYEE, department: 'Логистика', title: 'Тележки для перевозки оснастки', problem: 'Оснастку к станкам переносят вручную: тяжело и долго.', solution: 'Купить две тележки с полками под оснастку.', effect: 'Переналадка быстрее на 10 минут.', amountMinor: 20000000, status: 'APPROVED', daysAgo: 50, decidedBy: CEO, comment: 'Согласовано, тележки закупим.' },
  { author: EMPLOYEE, department: 'Качество', title: 'Контрольные приспособления для экспортных партий', problem: 'Экспортные партии возвращают из-за отклонений посадочных размеров, претензии приходят в долларах.', solution: 'Сделать контрольные приспособления под каждую экспортную деталь и проверять ими всю партию.', effect: 'Нет возвратов экспортных партий.', amountMinor: null, status: 'APPROVED', daysAgo: 175, decidedBy: CEO, comment: 'Согласовано: претензии по экспорту обходятся дороже приспособлений.' },
  { author: EMPLOYEE, department: 'Логистика', title: 'Оборотная тара вместо картонных коробок', problem: 'Детали между цехами возят в картонных коробках: коробки рвутся за неделю, на них уходит до 40 000 ₽ в месяц.', solution: 'Перейти на пластиковую оборотную тару с ячейками под детали.', effect: 'Экономия на упаковке и меньше повреждённых деталей.', amountMinor: 48000000, status: 'APPROVED', daysAgo: 40, decidedBy: CEO, comment: 'Согласовано, начнём с маршрута механообработка — сборка.' },
  { author: HEAD, department: 'Производство', title: 'Поиск и устранение утечек сжатого воздуха', problem: 'Компрессор работает без остановки: по цеху слышно, как травит воздух из соединений.', solution: 'Провести ультразвуковой поиск утечек и заменить изношенные фитинги и шланги.', effect: 'Компрессор работает на треть меньше.', amountMinor: 75000000, status: 'APPROVED', daysAgo: 25, decidedBy: CEO, comment: 'Одобрено, поиск утечек проведём в выходные.' },
  { author: EMPLOYEE, department: 'Производство', title: 'Наборы оснастки под частые заказы', problem: 'Перед каждым повторным заказом оснастку собирают по всему участку.', solution: 'Собрать для десяти самых частых заказов готовые наборы оснастки в подписанных ящиках.', effect: 'Переналадка на повторный заказ быстрее на 20 минут.', amountMinor: 52000000, status: 'APPROVED', daysAgo: 21, decidedBy: HEAD, comment: 'Поддерживаю, список заказов составим с мастером.' },
  { author: 'hr@demo.local', department: 'Отдел кадров', title: 'Наставничество для новых операторов', problem: 'Новички долго выходят на норму выработки.', solution: 'Закрепить за каждым новичком наставника на первый месяц.', effect: 'Выход на норму за 3 недели вместо 6.', amountMinor: 45000000, status: 'UNDER_CONSIDERATION', daysAgo: 6 },
  { author: 'findir@demo.local', department: 'Логистика', title: 'Объединение закупок расходников', problem: 'Каждый участок заказывает перчатки и ветошь отдельно.', solution: 'Раз в месяц собирать общую заявку.', effect: 'Скидка поставщика 7 %.', amountMinor: 25000000, status: 'REJECTED', daysAgo: 12, decidedBy: CEO, comment: 'Не подходит: склад не вместит месячный запас.' },
];

/**
 * The demo company with departments, about 50 employees, the demo logins as members, proposals in every status
 * of the review loop, goals and projects in every state, registries in every state (one open), a year of EBITDA,
 * and notifications of all that, the recent ones unread.
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
    const notifications: DemoNotificationRow[] = [];
    const suggestionIds = new Map<string, string>();
    for (const s of DEMO_SUGGESTIONS) {
      const author = byEmail.get(s.author);
      const departmentId = departments.get(s.department);
      if (!author || !departmentId) continue;
      const id = randomUUID();
      suggestionIds.set(s.title, id);
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
    notifications.push(...(await seedGoalsAndProjects(tx, { companyId: company.id, now, byEmail, departments, suggestionIds })));
    notifications.push(...(await seedDemoRegistries(tx, { companyId: company.id, now, people: byEmail })));
    await seedDemoEbitda(tx, { companyId: company.id, now, enteredBy: byEmail.get('findir@demo.local')?.id ?? null });
    // Unread unless said; counted as mailed, since they stand for what happened before the demo started (no digest of them).
    if (notifications.length > 0) await tx.kysely.insertInto('notifications').values(notifications.map((n) => ({ ...n, mailed_at: n.created_at }))).execute();
  });
}

// ------------------------------------------------------------------------------------------ goals and projects

interface DemoNotificationRow {
  company_id: string;
  user_id: string;
  kind: string;
  suggestion_id: string | null;
  goal_id?: string | null;
  project_id?: string | null;
  registry_id?: string | null;
  params: string;
  created_at: string;
  /** Read already (a notice its recipient acted on); unread when absent. */
  read_at?: string | null;
}

type DemoUser = Awaited<ReturnType<typeof demoUsers>>[number];

interface DemoGoal {
  key: string;
  direction: string;
  scope: string;
  description: string;
  expectedResult: string;
  indicator: { value: number; unitId: 'MINUTES' | 'HOURS' | 'DAYS' };
  ownerGoal: string;
  process: string;
  businessCustomer: string;
  status: GoalStatus;
  /** Set by the owner this many days ago; each later step a day after the one before. */
  daysAgo: number;
  /** The business customer's question (CLARIFICATION; for an APPROVED goal, one asked and answered on its way). */
  question?: string;
}

const OWNER = 'owner@demo.local';
const DIRECTION = 'direction@demo.local';
const FINSPEC = 'finspec@demo.local';

/**
 * Goals in every state: head@ has a NEW goal to take to work or question and one in work waiting on the owner;
 * the CEO has a NEW one; direction@'s question waits on the owner; two are approved, one after a clarification.
 */
const DEMO_GOALS: readonly DemoGoal[] = [
  { key: 'setup', direction: 'Сокращение времени переналадки', scope: 'Токарный и фрезерный участки', description: 'Переналадка станков занимает в среднем 45 минут и съедает до 10 % рабочего времени участков.', expectedResult: 'Переналадка не дольше 20 минут без потери качества первой детали.', indicator: { value: 25, unitId: 'MINUTES' }, ownerGoal: 'Выпускать на 10 % больше продукции без покупки новых станков.', process: 'Переналадка оборудования', businessCustomer: HEAD, status: 'NEW', daysAgo: 3 },
  { key: 'stock', direction: 'Снижение складских запасов', scope: 'Склад заготовок и комплектующих', description: 'Заготовки и комплектующие лежат на складе в среднем 35 дней.', expectedResult: 'Запас не больше 25 дней без остановок производства.', indicator: { value: 10, unitId: 'DAYS' }, ownerGoal: 'Высвободить оборотные средства.', process: 'Управление запасами', businessCustomer: CEO, status: 'NEW', daysAgo: 1 },
  { key: 'downtime', direction: 'Сокращение простоев оборудования', scope: 'Механообработка', description: 'Внеплановые ремонты станков дают до 60 часов простоя в месяц.', expectedResult: 'Не больше 20 часов внепланового простоя в месяц.', indicator: { value: 40, unitId: 'HOURS' }, ownerGoal: 'Загрузка оборудования не ниже 85 %.', process: 'Техническое обслуживание и ремонт', businessCustomer: HEAD, status: 'TO_WORK', daysAgo: 20 },
  { key: 'quality', direction: 'Ускорение выходного контроля', scope: 'Отдел технического контроля', description: 'Контроль партии деталей занимает 12 минут, партии ждут отгрузки.', expectedResult: 'Контроль партии за 4 минуты.', indicator: { value: 8, unitId: 'MINUTES' }, ownerGoal: 'Отгружать заказы в день готовности.', process: 'Выходной контроль', businessCustomer: DIRECTION, status: 'CLARIFICATION', daysAgo: 6, question: 'Какие партии считать: только серийные или и опытные тоже?' },
  { key: 'logistics', direction: 'Сокращение внутренней логистики', scope: 'Производство и склад', description: 'На перемещение заготовок, оснастки и отходов уходит до полутора часов в смену.', expectedResult: 'Не больше 30 минут перемещений в смену.', indicator: { value: 60, unitId: 'MINUTES' }, ownerGoal: 'Выпускать на 10 % больше продукции без покупки новых станков.', process: 'Внутренняя логистика', businessCustomer: HEAD, status: 'APPROVED', daysAgo: 120 },
  { key: 'energy', direction: 'Снижение затрат на энергоресурсы', scope: 'Цех № 1', description: 'Вентиляция и освещение цеха работают на полную мощность всю смену, даже когда участки стоят.', expectedResult: 'Оборудование цеха работает на полную мощность только при загрузке участков.', indicator: { value: 400, unitId: 'HOURS' }, ownerGoal: 'Снизить себестоимость продукции на 5 %.', process: 'Энергообеспечение', businessCustomer: DIRECTION, status: 'APPROVED', daysAgo: 240, question: 'Учитывать ли компрессорную или только цех?' },
];

interface DemoProject {
  name: string;
  problem: string;
  type: ProjectType;
  /** The seed's APPROVED proposal it is made from (its department and author carry over); none: created directly. */
  fromSuggestion?: string;
  createdBy: string;
  manager: string;
  /** Employees without a login from these departments, one each. */
  team: readonly string[];
  goals: readonly string[];
  metric: { unitId: 'MINUTES' | 'HOURS'; baseline: number; target: number };
  /** Planned completion, days from today. */
  completionInDays: number;
  reportingFrequency: ReportingFrequency;
  postMonitoringPeriodicity: ReportingFrequency;
  /** RUB unless said: the currency of its costs, effect and remuneration. */
  currency?: Currency;
  profitBasisPoints: number;
  maxPerProjectMinor: number | null;
  effectRepeatability: EffectRepeatability;
  status: ProjectStatus;
  /** Created this many days ago; sent for calculation a day later, calculated 3 days after creation, decided after 5. */
  daysAgo: number;
  calculation?: { estimatedCostsMinor: number; expectedEffect12mMinor: number };
  /** The share of the remuneration paid out in the table (1: all of it). */
  paidShare?: number;
  reason?: string;
  /** COMPLETED: the actual completion this many days ago, and the actual effect. */
  completed?: { daysAgo: number; actualEffect12mMinor: number };
  /** APPROVED: the last due report is not made (the job flagged it and told the manager). */
  overdue?: boolean;
}

/**
 * Projects in every state. head@ manages a NEW and a FOR_REVISION one (and one whose report is overdue); one waits
 * on finance (finspec@), one on direction@; the approved and completed ones have their indicator reports.
 * 'Маркировка кабелей на пультах станков' stays an APPROVED proposal of production without a project.
 * The approved ones were approved in different months (the dashboard's effect by month), one of them in USD, and
 * fill the registries of registries.ts: each was approved before the registry holding it was sent.
 */
const DEMO_PROJECTS: readonly DemoProject[] = [
  { name: 'ТО станков по моточасам', problem: 'Станки встают на ТО, когда в этом нет нужды, и ломаются между ТО.', type: 'TECHNICAL', fromSuggestion: 'Плановое ТО по наработке, а не по календарю', createdBy: HEAD, manager: HEAD, team: ['Производство', 'Производство'], goals: ['downtime'], metric: { unitId: 'HOURS', baseline: 60, target: 20 }, completionInDays: 120, reportingFrequency: 'MONTHLY', postMonitoringPeriodicity: 'QUARTERLY', profitBasisPoints: 1000, maxPerProjectMinor: 10_000_000, effectRepeatability: 'RECURRING', status: 'NEW', daysAgo: 5 },
  { name: 'Быстросъёмные прижимы на фрезерных станках', problem: 'Закрепление детали винтовыми прижимами занимает до 5 минут на каждую деталь.', type: 'TECHNICAL', fromSuggestion: 'Быстросъёмные прижимы на фрезерных станках', createdBy: HEAD, manager: HEAD, team: ['Производство', 'Производство'], goals: ['setup'], metric: { unitId: 'MINUTES', baseline: 5, target: 1 }, completionInDays: 60, reportingFrequency: 'MONTHLY', postMonitoringPeriodicity: 'QUARTERLY', profitBasisPoints: 1000, maxPerProjectMinor: 6_000_000, effectRepeatability: 'RECURRING', status: 'FOR_REVISION', daysAgo: 30, calculation: { estimatedCostsMinor: 25_000_000, expectedEffect12mMinor: 90_000_000 }, paidShare: 0.5, reason: 'Затраты посчитаны на все фрезерные станки, а начать договорились с двух: пересчитайте на два станка.' },
  { name: 'Шаблоны для контроля фасок', problem: 'Фаски меряют штангенциркулем, медленно и с ошибками.', type: 'ORGANIZATIONAL', fromSuggestion: 'Шаблоны для контроля фасок', createdBy: CEO, manager: EMPLOYEE, team: ['Качество'], goals: ['quality'], metric: { unitId: 'MINUTES', baseline: 12, target: 4 }, completionInDays: 45, reportingFrequency: 'MONTHLY', postMonitoringPeriodicity: 'HALF_YEARLY', profitBasisPoints: 1500, maxPerProjectMinor: null, effectRepeatability: 'RECURRING', status: 'CALCULATING', daysAgo: 4 },
  { name: 'Светодиодное освещение цеха № 1', problem: 'Лампы ДРЛ цеха потребляют много энергии и выходят из строя каждые полгода.', type: 'INVESTMENT', createdBy: DIRECTION, manager: HEAD, team: ['Производство', 'Логистика'], goals: ['energy'], metric: { unitId: 'HOURS', baseline: 600, target: 400 }, completionInDays: 90, reportingFrequency: 'QUARTERLY', postMonitoringPeriodicity: 'QUARTERLY', profitBasisPoints: 500, maxPerProjectMinor: 4_000_000, effectRepeatability: 'RECURRING', status: 'CALCULATED', daysAgo: 12, calculation: { estimatedCostsMinor: 180_000_000, expectedEffect12mMinor: 110_000_000 }, paidShare: 0.9 },
  { name: 'Раздельный сбор стружки по маркам стали', problem: 'Стружку разных марок ссыпают в один контейнер и сдают по цене самой дешёвой.', type: 'ORGANIZATIONAL', fromSuggestion: 'Раздельный сбор стружки по маркам стали', createdBy: HEAD, manager: EMPLOYEE, team: ['Производство', 'Логистика'], goals: ['logistics'], metric: { unitId: 'MINUTES', baseline: 40, target: 15 }, completionInDays: 30, reportingFrequency: 'MONTHLY', postMonitoringPeriodicity: 'QUARTERLY', profitBasisPoints: 1000, maxPerProjectMinor: 5_000_000, effectRepeatability: 'RECURRING', status: 'APPROVED', daysAgo: 100, calculation: { estimatedCostsMinor: 3_000_000, expectedEffect12mMinor: 60_000_000 }, paidShare: 1 },
  { name: 'Тележки для перевозки оснастки', problem: 'Оснастку к станкам переносят вручную: тяжело и долго.', type: 'TECHNICAL', fromSuggestion: 'Тележки для перевозки оснастки', createdBy: HEAD, manager: HEAD, team: ['Логистика'], goals: ['logistics', 'setup'], metric: { unitId: 'MINUTES', baseline: 90, target: 60 }, completionInDays: 20, reportingFrequency: 'WEEKLY', postMonitoringPeriodicity: 'MONTHLY', profitBasisPoints: 1000, maxPerProjectMinor: 2_000_000, effectRepeatability: 'RECURRING', status: 'APPROVED', daysAgo: 40, calculation: { estimatedCostsMinor: 8_000_000, expectedEffect12mMinor: 20_000_000 }, paidShare: 1, overdue: true },
  { name: 'Частотные преобразователи на вентиляции цеха № 1', problem: 'Вентиляция цеха работает на полную мощность всю смену, даже когда участки стоят.', type: 'INVESTMENT', createdBy: OWNER, manager: DIRECTION, team: ['Производство', 'Производство'], goals: ['energy'], metric: { unitId: 'HOURS', baseline: 720, target: 480 }, completionInDays: -50, reportingFrequency: 'MONTHLY', postMonitoringPeriodicity: 'QUARTERLY', profitBasisPoints: 800, maxPerProjectMinor: 8_000_000, effectRepeatability: 'RECURRING', status: 'COMPLETED', daysAgo: 220, calculation: { estimatedCostsMinor: 95_000_000, expectedEffect12mMinor: 140_000_000 }, paidShare: 1, completed: { daysAgo: 45, actualEffect12mMinor: 152_000_000 } },
  { name: 'Контрольные приспособления для экспортных заказов', problem: 'Экспортные партии возвращают из-за отклонений посадочных размеров, претензии приходят в долларах.', type: 'TECHNICAL', fromSuggestion: 'Контрольные приспособления для экспортных партий', createdBy: CEO, manager: DIRECTION, team: ['Качество', 'Производство'], goals: ['quality'], metric: { unitId: 'MINUTES', baseline: 30, target: 10 }, completionInDays: 15, reportingFrequency: 'QUARTERLY', postMonitoringPeriodicity: 'QUARTERLY', currency: 'USD', profitBasisPoints: 1000, maxPerProjectMinor: 300_000, effectRepeatability: 'RECURRING', status: 'APPROVED', daysAgo: 170, calculation: { estimatedCostsMinor: 1_250_000, expectedEffect12mMinor: 4_800_000 }, paidShare: 1 },
  { name: 'Оборотная тара на маршруте механообработка — сборка', problem: 'Детали между цехами возят в картонных коробках: коробки рвутся за неделю, на них уходит до 40 000 ₽ в месяц.', type: 'ORGANIZATIONAL', fromSuggestion: 'Оборотная тара вместо картонных коробок', createdBy: HEAD, manager: HEAD, team: ['Логистика', 'Производство'], goals: ['logistics'], metric: { unitId: 'MINUTES', baseline: 50, target: 30 }, completionInDays: 40, reportingFrequency: 'WEEKLY', postMonitoringPeriodicity: 'MONTHLY', profitBasisPoints: 1000, maxPerProjectMinor: 3_000_000, effectRepeatability: 'RECURRING', status: 'APPROVED', daysAgo: 31, calculation: { estimatedCostsMinor: 22_000_000, expectedEffect12mMinor: 48_000_000 }, paidShare: 0.5 },
  { name: 'Устранение утечек сжатого воздуха', problem: 'Компрессор работает без остановки: по цеху слышно, как травит воздух из соединений.', type: 'TECHNICAL', fromSuggestion: 'Поиск и устранение утечек сжатого воздуха', createdBy: HEAD, manager: HEAD, team: ['Производство'], goals: ['energy'], metric: { unitId: 'HOURS', baseline: 720, target: 480 }, completionInDays: 25, reportingFrequency: 'WEEKLY', postMonitoringPeriodicity: 'MONTHLY', profitBasisPoints: 800, maxPerProjectMinor: 5_000_000, effectRepeatability: 'RECURRING', status: 'APPROVED', daysAgo: 18, calculation: { estimatedCostsMinor: 12_000_000, expectedEffect12mMinor: 75_000_000 } },
  { name: 'Готовые наборы оснастки для частых заказов', problem: 'Перед каждым повторным заказом оснастку собирают по всему участку.', type: 'ORGANIZATIONAL', fromSuggestion: 'Наборы оснастки под частые заказы', createdBy: HEAD, manager: EMPLOYEE, team: ['Производство'], goals: ['setup'], metric: { unitId: 'MINUTES', baseline: 45, target: 25 }, completionInDays: 35, reportingFrequency: 'WEEKLY', postMonitoringPeriodicity: 'MONTHLY', profitBasisPoints: 1000, maxPerProjectMinor: 4_000_000, effectRepeatability: 'RECURRING', status: 'APPROVED', daysAgo: 15, calculation: { estimatedCostsMinor: 18_500_000, expectedEffect12mMinor: 52_000_000 } },
];

const TEAM_ROLES = ['Исполнитель', 'Наладчик', 'Контроль результата'];

/** When the direction manager approved the project (its audit trail's last move to APPROVED), as migration 0013 backfills it. */
function approvedAtOf(history: readonly ProjectHistoryEntry[]): string | null {
  return history.findLast((entry) => entry.action === 'TRANSITION' && entry.toStatus === 'APPROVED')?.at ?? null;
}

/**
 * The demo goals and projects, written as the services would have written them step by step (history entries,
 * next_report_due by addReportingPeriod, the payments within the remuneration); answers their notifications.
 */
async function seedGoalsAndProjects(
  tx: Queryable,
  ctx: { companyId: string; now: number; byEmail: ReadonlyMap<string, DemoUser>; departments: ReadonlyMap<string, string>; suggestionIds: ReadonlyMap<string, string> },
): Promise<DemoNotificationRow[]> {
  const { companyId, now, byEmail, departments, suggestionIds } = ctx;
  const day = 24 * 60 * 60 * 1000;
  const at = (ms: number) => new Date(ms).toISOString();
  const dateOf = (ms: number) => at(ms).slice(0, 10);
  const today = dateOf(now);
  /** Midnight UTC starting a calendar date, as a time. */
  const startOf = (date: string) => Date.parse(`${date}T00:00:00Z`);
  const nameOf = (u: { last_name: string; first_name: string; middle_name: string | null }) => [u.last_name, u.first_name, u.middle_name].filter(Boolean).join(' ');
  const employees = await tx.kysely
    .selectFrom('employees')
    .select(['id', 'user_id', 'last_name', 'first_name', 'middle_name', 'service_number', 'department_id'])
    .where('company_id', '=', companyId)
    .orderBy('service_number')
    .execute();
  const employeeOfUser = new Map(employees.filter((e) => e.user_id !== null).map((e) => [e.user_id, e]));
  const employeeOf = (email: string) => {
    const user = byEmail.get(email);
    return user ? employeeOfUser.get(user.id) : undefined;
  };
  const person = (email: string) => {
    const user = byEmail.get(email);
    return { byUserId: user?.id ?? null, byName: user ? nameOf(user) : null };
  };
  const notifications: DemoNotificationRow[] = [];
  const tell = (to: string, kind: NotificationKind, when: number, about: { goalId?: string; projectId?: string }, params: Record<string, string | null>) => {
    const user = byEmail.get(to);
    if (!user) return;
    notifications.push({ company_id: companyId, user_id: user.id, kind, suggestion_id: null, goal_id: about.goalId ?? null, project_id: about.projectId ?? null, params: JSON.stringify(params), created_at: at(when) });
  };

  const goalIds = new Map<string, string>();
  const goalCustomers = new Map<string, string>();
  for (const g of DEMO_GOALS) {
    const customer = employeeOf(g.businessCustomer);
    if (!customer) continue;
    const id = randomUUID();
    const created = now - g.daysAgo * day;
    const title = `${g.direction} — ${g.scope}`;
    const owner = person(OWNER);
    const bc = person(g.businessCustomer);
    const history: GoalHistoryEntry[] = [{ at: at(created), action: 'CREATED', fromStatus: null, toStatus: 'NEW', ...owner, comment: null }];
    let step = created;
    const next = () => (step += day);
    if (g.question) {
      history.push({ at: at(next()), action: 'CLARIFICATION', fromStatus: 'NEW', toStatus: 'CLARIFICATION', ...bc, comment: g.question });
      if (g.status !== 'CLARIFICATION') {
        history.push({ at: at(next()), action: 'EDITED', fromStatus: 'CLARIFICATION', toStatus: 'CLARIFICATION', ...owner, comment: null });
        history.push({ at: at(step), action: 'RESEND', fromStatus: 'CLARIFICATION', toStatus: 'NEW', ...owner, comment: null });
      }
    }
    if (g.status === 'TO_WORK' || g.status === 'APPROVED') history.push({ at: at(next()), action: 'TO_WORK', fromStatus: 'NEW', toStatus: 'TO_WORK', ...bc, comment: null });
    if (g.status === 'APPROVED') history.push({ at: at(next()), action: 'APPROVE', fromStatus: 'TO_WORK', toStatus: 'APPROVED', ...owner, comment: null });
    await tx.kysely
      .insertInto('goals')
      .values({
        company_id: companyId,
        id,
        direction: g.direction,
        scope: g.scope,
        description: g.description,
        expected_result: g.expectedResult,
        indicator_value: g.indicator.value,
        indicator_unit: g.indicator.unitId,
        owner_goal: g.ownerGoal,
        start_date: dateOf(created),
        end_date: dateOf(created + 365 * day),
        business_customer_employee_id: customer.id,
        process: g.process,
        status: g.status,
        history: JSON.stringify(history),
        created_by: owner.byUserId,
        created_at: at(created),
        updated_at: at(step),
      })
      .execute();
    goalIds.set(g.key, id);
    goalCustomers.set(g.key, customer.id);
    // What the goal's last step told whom (as server/features/goals would have).
    if (g.status === 'NEW') tell(g.businessCustomer, 'GOAL_ASSIGNED', step, { goalId: id }, { title, byName: owner.byName, comment: null });
    if (g.status === 'TO_WORK') tell(OWNER, 'GOAL_TO_WORK', step, { goalId: id }, { title, byName: bc.byName, comment: null });
    if (g.status === 'CLARIFICATION') tell(OWNER, 'GOAL_CLARIFICATION', step, { goalId: id }, { title, byName: bc.byName, comment: g.question ?? null });
  }

  // Employees without a login, per department, handed out in turn to the projects' teams.
  const spare = new Map<string, typeof employees>();
  for (const e of employees) {
    if (e.user_id !== null || e.department_id === null) continue;
    spare.set(e.department_id, [...(spare.get(e.department_id) ?? []), e]);
  }
  const takeSpare = (department: string) => {
    const list = spare.get(departments.get(department) ?? '') ?? [];
    const taken = list.shift();
    if (taken) list.push(taken);
    return taken;
  };

  for (const p of DEMO_PROJECTS) {
    const manager = employeeOf(p.manager);
    const creator = person(p.createdBy);
    if (!manager || creator.byUserId === null) continue;
    const suggestion = p.fromSuggestion ? DEMO_SUGGESTIONS.find((s) => s.title === p.fromSuggestion) : undefined;
    const suggestionId = p.fromSuggestion ? suggestionIds.get(p.fromSuggestion) : undefined;
    if (p.fromSuggestion && (!suggestion || !suggestionId)) continue;
    const author = person(suggestion ? suggestion.author : p.createdBy);
    const id = randomUUID();
    const title = p.name;
    const managerPerson = person(p.manager);
    const team = p.team.flatMap((department, index) => {
      const e = takeSpare(department);
      return e ? [{ employeeId: e.id, name: nameOf(e), serviceNumber: e.service_number, role: TEAM_ROLES[index % TEAM_ROLES.length] ?? 'Исполнитель' }] : [];
    });
    const goals = p.goals.flatMap((key) => goalIds.get(key) ?? []);
    const created = now - p.daysAgo * day;
    const history: ProjectHistoryEntry[] = [{ at: at(created), action: 'CREATED', fromStatus: null, toStatus: 'NEW', ...creator, comment: null }];
    const move = (when: number, from: ProjectStatus, to: ProjectStatus, who: string, comment: string | null = null) =>
      history.push({ at: at(when), action: 'TRANSITION', fromStatus: from, toStatus: to, ...person(who), comment });
    const order = PROJECT_STATUSES.indexOf(p.status);
    const calculating = created + day;
    const calculated = created + 3 * day;
    const decided = created + 5 * day;
    let updated = created;
    if (order >= PROJECT_STATUSES.indexOf('CALCULATING')) {
      move(calculating, 'NEW', 'CALCULATING', p.manager);
      updated = calculating;
    }
    if (order >= PROJECT_STATUSES.indexOf('CALCULATED')) {
      move(calculated, 'CALCULATING', 'CALCULATED', FINSPEC);
      updated = calculated;
    }
    if (p.status === 'FOR_REVISION') {
      move(decided, 'CALCULATED', 'FOR_REVISION', DIRECTION, p.reason ?? null);
      updated = decided;
      tell(p.manager, 'PROJECT_FOR_REVISION', decided, { projectId: id }, { title, byName: person(DIRECTION).byName, comment: p.reason ?? null });
    }
    const effect = p.calculation?.expectedEffect12mMinor ?? null;
    const remuneration = effect === null ? 0 : remunerationOf({ profitBasisPoints: p.profitBasisPoints, expectedEffect12mMinor: effect, maxPerProjectMinor: p.maxPerProjectMinor });
    const payable = [manager.id, ...team.map((member) => member.employeeId)];
    const paid = Math.floor(remuneration * (p.paidShare ?? 0));
    const payments = paid > 0 ? splitEvenly(paid, payable.length).map((amountMinor, index) => ({ employeeId: payable[index] ?? manager.id, amountMinor })) : [];
    if (!checkPayments(payments, remuneration).ok) throw new Error(`demo project "${p.name}": payments above its remuneration`);

    // Reports: each due date met on the day (the next due one period later, as the service counts it), until the
    // next due date is still ahead; an overdue project leaves its last due date unreported.
    const reports: ProjectIndicatorReport[] = [];
    let nextDue: string | null = null;
    let overdueAt: number | null = null;
    let remindedDue: string | null = null;
    let actualCompletionDate: string | null = null;
    const report = (date: string, status: ProjectStatus, index: number) => {
      const share = Math.min(1, (index + 1) / 4);
      const value = Math.round((p.metric.baseline - (p.metric.baseline - p.metric.target) * share) * 10) / 10;
      const when = startOf(date) + 15 * 60 * 60 * 1000;
      reports.push({ id: randomUUID(), date, value, comment: null, at: at(when), ...managerPerson });
      history.push({ at: at(when), action: 'INDICATOR_REPORTED', fromStatus: status, toStatus: status, ...managerPerson, comment: null });
      updated = Math.max(updated, when);
    };
    if (p.status === 'APPROVED' || p.status === 'COMPLETED') {
      move(decided, 'CALCULATED', 'APPROVED', DIRECTION);
      updated = decided;
      const until = p.completed ? dateOf(now - p.completed.daysAgo * day) : today;
      let due = addReportingPeriod(dateOf(decided), p.reportingFrequency);
      // An overdue project stops one due date short: that one has passed unreported.
      while (due < until && (p.overdue ? addReportingPeriod(due, p.reportingFrequency) < today : true)) {
        report(due, 'APPROVED', reports.length);
        due = addReportingPeriod(due, p.reportingFrequency);
      }
      nextDue = due;
      if (p.overdue && due < today) {
        overdueAt = startOf(due) + day;
        remindedDue = due;
        tell(p.manager, 'PROJECT_REPORT_OVERDUE', overdueAt, { projectId: id }, { title, byName: null, comment: null, dueDate: due });
      }
      if (p.completed) {
        actualCompletionDate = until;
        const completedAt = startOf(until) + 16 * 60 * 60 * 1000;
        history.push({ at: at(completedAt), action: 'TRANSITION', fromStatus: 'APPROVED', toStatus: 'COMPLETED', ...managerPerson, comment: 'Преобразователи установлены на все вентиляторы цеха.' });
        updated = completedAt;
        // Post-monitoring: the first due date one period after the actual completion (within its 12 months).
        nextDue = addReportingPeriod(until, p.postMonitoringPeriodicity);
      }
    }
    if (p.status === 'CALCULATING') tell(FINSPEC, 'PROJECT_CALCULATING', calculating, { projectId: id }, { title, byName: managerPerson.byName, comment: null });
    if (p.status === 'CALCULATING') tell('findir@demo.local', 'PROJECT_CALCULATING', calculating, { projectId: id }, { title, byName: managerPerson.byName, comment: null });
    if (p.status === 'CALCULATED') tell(DIRECTION, 'PROJECT_CALCULATED', calculated, { projectId: id }, { title, byName: person(FINSPEC).byName, comment: null });
    if (p.manager !== p.createdBy && p.status === 'CALCULATING') tell(p.manager, 'PROJECT_CREATED', created, { projectId: id }, { title, byName: creator.byName, comment: null });

    const customerGoal = p.goals[0];
    await tx.kysely
      .insertInto('projects')
      .values({
        company_id: companyId,
        id,
        name: p.name,
        problem: p.problem,
        type: p.type,
        suggestion_id: suggestionId ?? null,
        department_id: suggestion ? (departments.get(suggestion.department) ?? null) : null,
        author_user_id: author.byUserId,
        author_name: author.byName ?? '',
        business_customer_employee_id: customerGoal ? (goalCustomers.get(customerGoal) ?? null) : null,
        goal_ids: goals,
        baseline_metric: JSON.stringify({ value: p.metric.baseline, unitId: p.metric.unitId }),
        target_metric: JSON.stringify({ value: p.metric.target, unitId: p.metric.unitId }),
        completion_date: dateOf(now + p.completionInDays * day),
        actual_completion_date: actualCompletionDate,
        reporting_frequency: p.reportingFrequency,
        post_monitoring_periodicity: p.postMonitoringPeriodicity,
        project_manager_employee_id: manager.id,
        team: JSON.stringify(team),
        currency: p.currency ?? 'RUB',
        profit_basis_points: p.profitBasisPoints,
        max_per_project_minor: p.maxPerProjectMinor === null ? null : String(p.maxPerProjectMinor),
        estimated_costs_minor: p.calculation ? String(p.calculation.estimatedCostsMinor) : null,
        expected_effect_12m_minor: effect === null ? null : String(effect),
        actual_effect_12m_minor: p.completed ? String(p.completed.actualEffect12mMinor) : null,
        effect_repeatability: p.effectRepeatability,
        payments: JSON.stringify(payments),
        status: p.status,
        indicator_reports: JSON.stringify(reports),
        next_report_due: nextDue,
        report_overdue_at: overdueAt === null ? null : at(overdueAt),
        report_reminded_due: remindedDue,
        history: JSON.stringify(history),
        approved_at: approvedAtOf(history),
        created_by: creator.byUserId,
        created_at: at(created),
        updated_at: at(updated),
      })
      .execute();
  }
  return notifications;
}
