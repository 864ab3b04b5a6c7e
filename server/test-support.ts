// Test helpers: a real database per test file (in-memory PGlite, or a fresh schema on the
// PostgreSQL of DATABASE_URL, dropped afterwards so parallel files never collide) and the real app
// driven through `app.inject()`. Password hashing is made cheap here through configuration.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { API_PREFIX } from '../src/domain/paths';
import type { RegistrationInput } from '../src/domain/auth';
import { buildApp } from './app';
import type { Clock } from './clock';
import { loadConfig, type Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrations';

export interface TestDatabase {
  db: Database;
  /** The PostgreSQL schema, when on PostgreSQL. */
  schema: string | undefined;
  close(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await openDatabase({ dataDir: null });
    await migrate(db);
    return { db, schema: undefined, close: () => db.close() };
  }
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = await openDatabase({ databaseUrl: url, schema });
  await migrate(db);
  return {
    db,
    schema,
    async close() {
      await db.close();
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      await dropper.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await dropper.end();
    },
  };
}

/**
 * A second connection pool on the same database, as a second server process would have: on PostgreSQL a new
 * pool on the same schema; PGlite allows one process per database, so there it is the same Database.
 */
export async function openSameDatabase(database: TestDatabase): Promise<{ db: Database; close(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url || !database.schema) return { db: database.db, close: () => Promise.resolve() };
  const db = await openDatabase({ databaseUrl: url, schema: database.schema });
  return { db, close: () => db.close() };
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: Database;
  config: Config;
  /** Lines the console mail transport printed (once the mail's job ran: see mailsTo, or ctx.jobs.runDue()). */
  printed: string[];
  close(): Promise<void>;
}

// The job runners of the open test apps, by database: the mail helpers below run what is due first, as the
// woken runner of a listening server does within milliseconds of the commit.
const runnersOf = new Map<Database, Set<AppContext['jobs']>>();

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    appUrl: 'http://app.test',
    staticDir: '/nonexistent/static-dir',
    logLevel: 'silent',
    passwordScryptLogN: 10,
    ...overrides,
  };
}

/** The app on `database` (shared by a test file), or on its own new database closed with the app. */
export async function createTestApp(overrides: Partial<Config> = {}, database?: TestDatabase, options: { clock?: Clock } = {}): Promise<TestApp> {
  const owned = database ? null : await createTestDatabase();
  const { db } = database ?? owned!;
  const config = testConfig(overrides);
  const printed: string[] = [];
  const { app, ctx } = await buildApp({ config, db, printMail: (line) => printed.push(line), jobConcurrency: 1, ...(options.clock ? { clock: options.clock } : {}) });
  await app.ready();
  const runners = runnersOf.get(db) ?? new Set();
  runners.add(ctx.jobs);
  runnersOf.set(db, runners);
  return {
    app,
    ctx,
    db,
    config,
    printed,
    async close() {
      runners.delete(ctx.jobs);
      await app.close();
      await owned?.close();
    },
  };
}

/** The app of a whole test file (see testAppPerFile), with its database (for a second connection); it closes itself. */
export interface FileTestApp extends Omit<TestApp, 'close'> {
  readonly database: TestDatabase;
}

/**
 * One app on a database of its own for every test of the calling file: opened in `beforeAll`, closed with its
 * database in `afterAll` (both registered here, so call it at the top of the file). `options.clock` is the
 * server's time (a manual clock the tests move). Read it from tests and hooks only, once it is open.
 */
export function testAppPerFile(options: { clock?: Clock; config?: Partial<Config> } = {}): FileTestApp {
  let opened: { t: TestApp; database: TestDatabase } | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase();
    opened = { database, t: await createTestApp(options.config ?? {}, database, options.clock ? { clock: options.clock } : {}) };
  });
  afterAll(async () => {
    await opened?.t.close();
    await opened?.database.close();
  });
  const open = () => {
    if (!opened) throw new Error('the test app opens in beforeAll: use it inside a test or a hook');
    return opened;
  };
  return {
    get app() {
      return open().t.app;
    },
    get ctx() {
      return open().t.ctx;
    },
    get db() {
      return open().t.db;
    },
    get config() {
      return open().t.config;
    },
    get printed() {
      return open().t.printed;
    },
    get database() {
      return open().database;
    },
  };
}

export const api = (path: string) => `${API_PREFIX}${path}`;

/** A fresh client address, so the per-address sign-in throttle of one test does not hit another. */
export function clientAddress(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return `10.${a}.${b}.${c}`;
}

let counter = 0;
/** A fresh address per call, so tests sharing a database do not meet each other's accounts. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${process.pid}.${counter}.${randomBytes(3).toString('hex')}@example.com`;
}

export function registrationInput(overrides: Partial<Record<keyof RegistrationInput, unknown>> = {}): Record<string, unknown> {
  return {
    firstName: 'Иван',
    lastName: 'Петров',
    middleName: 'Сергеевич',
    position: 'GENERAL_DIRECTOR',
    company: 'ООО «Ромашка»',
    inn: '7707083893',
    mainGoal: 'QUALITY',
    phone: '+7 (912) 345-67-89',
    email: uniqueEmail(),
    role: 'OWNER',
    password: 'correct horse',
    ...overrides,
  };
}

export interface OutboxRow {
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  link: string | null;
  kind: string;
  /** Set when sent: 'smtp' or 'console'. */
  transport: string | null;
  sent_at: Date | null;
  error: string | null;
  attempts: number;
}

/** The mails to `email`, after the due jobs of the open test apps on `db` ran (so they were queued and sent). */
export async function mailsTo(db: Database, email: string): Promise<OutboxRow[]> {
  for (const runner of runnersOf.get(db) ?? []) await runner.runDue();
  return db.query<OutboxRow>('SELECT * FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY created_at, id', [email]);
}

export async function lastMailTo(db: Database, email: string): Promise<OutboxRow> {
  const mails = await mailsTo(db, email);
  const last = mails.at(-1);
  if (!last) throw new Error(`no mail to ${email}`);
  return last;
}

export function tokenOf(link: string | null): string {
  const token = link ? new URL(link).searchParams.get('token') : null;
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

export function json<T = Record<string, unknown>>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}

/** Registers, confirms the e-mail and signs in; returns the address and the token pair. */
export async function signUp(
  t: Pick<TestApp, 'app' | 'db'>,
  overrides: Partial<Record<keyof RegistrationInput, unknown>> = {},
): Promise<{ email: string; password: string; access: string; refresh: string }> {
  const input = registrationInput(overrides);
  const email = String(input.email);
  const password = String(input.password);
  // From its own address, like the sign-in below: registrations are throttled per client address.
  const registered = await t.app.inject({ method: 'POST', url: api('/auth/register'), remoteAddress: clientAddress(), payload: input });
  if (registered.statusCode !== 200) throw new Error(`register: ${registered.statusCode} ${registered.body}`);
  const token = tokenOf((await lastMailTo(t.db, email)).link);
  const verified = await t.app.inject({ method: 'POST', url: api('/auth/verify-email'), payload: { token } });
  if (verified.statusCode !== 200) throw new Error(`verify: ${verified.statusCode} ${verified.body}`);
  const login = await t.app.inject({ method: 'POST', url: api('/auth/login'), remoteAddress: clientAddress(), payload: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const pair = json<{ access_token: string; refresh_token: string }>(login);
  return { email, password, access: pair.access_token, refresh: pair.refresh_token };
}
