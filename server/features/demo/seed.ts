// Demo data of DESIGN.md: one login per role (password `demo1234`, e-mails verified) in the demo
// company "ООО «Демо Завод»". Idempotent: logins that already exist are left as they are, so it can
// run at every start and grow with later issues.

import type { Database } from '../../db/database';
import { hashPassword } from '../../auth/passwords';
import { authorityOf } from '../../auth/users';

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

/** Creates the missing demo logins; returns how many were created. */
export async function seedDemo(db: Database, scryptLogN: number): Promise<number> {
  const existing = new Set(
    (await db.query<{ email: string }>('SELECT lower(email) AS email FROM users WHERE lower(email) = ANY($1)', [DEMO_LOGINS.map((l) => l.email)])).map((r) => r.email),
  );
  const missing = DEMO_LOGINS.filter((l) => !existing.has(l.email));
  if (missing.length === 0) return 0;
  const hashes = await Promise.all(missing.map(() => hashPassword(DEMO_PASSWORD, scryptLogN)));
  let created = 0;
  await db.transaction(async (tx) => {
    for (const [i, login] of missing.entries()) {
      const rows = await tx.query(
        `INSERT INTO users (email, password_hash, first_name, last_name, middle_name, position, other_position, phone,
                            registration_company, registration_inn, main_goal, role, authorities, locale, email_verified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'ru', now())
         ON CONFLICT DO NOTHING RETURNING id`,
        [
          login.email,
          hashes[i] ?? '',
          login.firstName,
          login.lastName,
          login.middleName,
          login.position,
          login.otherPosition ?? null,
          `+7 (495) 000-00-${String(i + 10).padStart(2, '0')}`,
          DEMO_COMPANY.name,
          DEMO_COMPANY.inn,
          login.role === 'OWNER' ? 'COST_REDUCTION' : null,
          login.role,
          [authorityOf(login.role)],
        ],
      );
      created += rows.length;
    }
  });
  return created;
}

/** The demo logins present in the database, for the start-up banner. */
export async function listDemoLogins(db: Database): Promise<DemoLogin[]> {
  const present = new Set(
    (await db.query<{ email: string }>('SELECT lower(email) AS email FROM users WHERE lower(email) = ANY($1)', [DEMO_LOGINS.map((l) => l.email)])).map((r) => r.email),
  );
  return DEMO_LOGINS.filter((l) => present.has(l.email));
}
