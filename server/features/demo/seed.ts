// Demo data of DESIGN.md: one login per role (password `demo1234`, e-mails verified) in the demo
// company "ООО «Демо Завод»". Idempotent: logins that already exist are left as they are, so it can
// run at every start and grow with later issues.

import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database';
import { hashPassword } from '../../auth/passwords';
import { authorityOf } from '../../auth/users';
import { translate } from '../../i18n/messages';

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

const DEMO_SUGGESTIONS: readonly {
  author: string;
  department: string;
  title: string;
  problem: string;
  solution: string;
  effect: string;
  amountMinor: number | null;
  status: 'UNDER_CONSIDERATION' | 'APPROVED' | 'REJECTED';
  daysAgo: number;
  comment?: string;
}[] = [
  { author: 'employee@demo.local', department: 'Производство', title: 'Магнитные держатели для инструмента у станков', problem: 'Операторы ищут ключи и щупы по всему участку, до 15 минут в смену.', solution: 'Закрепить магнитные планки у каждого станка и разметить места инструмента.', effect: 'Экономия 15 минут на оператора в смену.', amountMinor: 18000000, status: 'UNDER_CONSIDERATION', daysAgo: 1 },
  { author: 'employee@demo.local', department: 'Производство', title: 'Подогрев СОЖ зимой', problem: 'Утром холодная СОЖ даёт брак первых деталей.', solution: 'Установить таймер включения подогрева бака за час до смены.', effect: 'Меньше брака в начале смены.', amountMinor: null, status: 'UNDER_CONSIDERATION', daysAgo: 8 },
  { author: 'employee@demo.local', department: 'Логистика', title: 'Разметка зон на складе заготовок', problem: 'Погрузчики теряют время на поиск паллет.', solution: 'Разметить зоны краской и подписать стеллажи.', effect: 'Быстрее отгрузка на участки.', amountMinor: 9500000, status: 'UNDER_CONSIDERATION', daysAgo: 3 },
  { author: 'head@demo.local', department: 'Производство', title: 'Плановое ТО по наработке, а не по календарю', problem: 'Станки встают на ТО, когда в этом нет нужды, и ломаются между ТО.', solution: 'Вести счётчики моточасов и планировать ТО по ним.', effect: 'Меньше простоев оборудования.', amountMinor: 120000000, status: 'APPROVED', daysAgo: 20, comment: 'Берём в работу, начнём с участка токарной обработки.' },
  { author: 'employee@demo.local', department: 'Качество', title: 'Шаблоны для контроля фасок', problem: 'Фаски меряют штангенциркулем, медленно и с ошибками.', solution: 'Сделать простые шаблоны «проходит/не проходит».', effect: 'Контроль быстрее в три раза.', amountMinor: 3000000, status: 'APPROVED', daysAgo: 15, comment: 'Хорошая идея, шаблоны заказаны.' },
  { author: 'employee@demo.local', department: 'Бухгалтерия', title: 'Электронные путевые листы', problem: 'Бумажные путевые листы теряются.', solution: 'Перейти на электронные путевые листы.', effect: 'Меньше бумажной работы.', amountMinor: null, status: 'REJECTED', daysAgo: 30, comment: 'Сейчас не позволяет учётная система, вернёмся в следующем году.' },
  { author: 'hr@demo.local', department: 'Отдел кадров', title: 'Наставничество для новых операторов', problem: 'Новички долго выходят на норму выработки.', solution: 'Закрепить за каждым новичком наставника на первый месяц.', effect: 'Выход на норму за 3 недели вместо 6.', amountMinor: 45000000, status: 'UNDER_CONSIDERATION', daysAgo: 6 },
  { author: 'findir@demo.local', department: 'Логистика', title: 'Объединение закупок расходников', problem: 'Каждый участок заказывает перчатки и ветошь отдельно.', solution: 'Раз в месяц собирать общую заявку.', effect: 'Скидка поставщика 7 %.', amountMinor: 25000000, status: 'REJECTED', daysAgo: 12, comment: 'Не подходит: склад не вместит месячный запас.' },
];

/** The demo company with departments, about 50 employees, the demo logins as members and proposals in every status. */
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
    for (const s of DEMO_SUGGESTIONS) {
      const author = byEmail.get(s.author);
      const departmentId = departments.get(s.department);
      if (!author || !departmentId) continue;
      const received = new Date(Date.now() - s.daysAgo * day);
      const decided = new Date(received.getTime() + 2 * day);
      const reviewer = byEmail.get('head@demo.local')?.id ?? null;
      const history = [
        { at: received.toISOString(), kind: 'SUBMITTED', byUserId: author.id, comment: null },
        ...(s.status === 'UNDER_CONSIDERATION' ? [] : [{ at: decided.toISOString(), kind: s.status, byUserId: reviewer, comment: s.comment ?? null }]),
      ];
      await tx.kysely
        .insertInto('suggestions')
        .values({
          company_id: company.id,
          id: randomUUID(),
          title: s.title,
          problem: s.problem,
          solution: s.solution,
          expected_effect: s.effect,
          effect_amount_minor: s.amountMinor === null ? null : String(s.amountMinor),
          effect_currency: s.amountMinor === null ? null : 'RUB',
          department_id: departmentId,
          author_id: author.id,
          author_name: [author.last_name, author.first_name, author.middle_name].filter(Boolean).join(' '),
          status: s.status,
          due_at: new Date(received.getTime() + 5 * day).toISOString(),
          submitted_at: received.toISOString(),
          received_at: received.toISOString(),
          review_comment: s.status === 'UNDER_CONSIDERATION' ? null : (s.comment ?? null),
          history: JSON.stringify(history),
          created_at: received.toISOString(),
          updated_at: (s.status === 'UNDER_CONSIDERATION' ? received : decided).toISOString(),
        })
        .execute();
    }
  });
}
