// The main-service's environment, parsed and checked once at start. A bad value stops the process
// with a message naming the variable, instead of failing later in some request.

import { coerce, create, defaulted, enums, integer, min, max, nonempty, object, optional, refine, string, StructError, type Infer } from 'superstruct';

const Int = (lo: number, hi: number) => coerce(max(min(integer(), lo), hi), string(), (v) => (/^\d+$/.test(v.trim()) ? Number(v) : NaN));
const Url = (protocols: readonly string[]) =>
  refine(nonempty(string()), 'url', (v) => {
    try {
      return protocols.includes(new URL(v).protocol) || `must start with ${protocols.join(' or ')}`;
    } catch {
      return 'must be a URL';
    }
  });
const Flag = coerce(enums(['0', '1']), string(), (v) => ({ true: '1', yes: '1', false: '0', no: '0' })[v.trim().toLowerCase()] ?? v.trim());

/** The platform operator's payment details printed on the verification invoice (`INVOICE_PAYEE`, JSON). */
export const InvoicePayee = object({
  name: object({ ru: nonempty(string()), en: nonempty(string()) }),
  inn: refine(string(), 'inn', (v) => /^\d{10}$/.test(v) || 'inn must be 10 digits'),
  kpp: refine(string(), 'kpp', (v) => /^\d{4}[\dA-Z]{2}\d{3}$/.test(v) || 'kpp must be 9 characters'),
  bank: object({ ru: nonempty(string()), en: nonempty(string()) }),
  bic: refine(string(), 'bic', (v) => /^\d{9}$/.test(v) || 'bic must be 9 digits'),
  correspondentAccount: refine(string(), 'account', (v) => /^\d{20}$/.test(v) || 'accounts are 20 digits'),
  account: refine(string(), 'account', (v) => /^\d{20}$/.test(v) || 'accounts are 20 digits'),
});
export type InvoicePayee = Infer<typeof InvoicePayee>;

const JsonPayee = coerce(InvoicePayee, string(), (v) => {
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
});

const EnvStruct = object({
  PORT: defaulted(Int(0, 65535), 8080),
  HOST: defaulted(nonempty(string()), '0.0.0.0'),
  DATABASE_URL: optional(Url(['postgres:', 'postgresql:'])),
  DATABASE_SCHEMA: optional(refine(string(), 'schema', (v) => /^[a-z_][a-z0-9_]{0,62}$/.test(v) || 'must be a lower-case SQL identifier')),
  DATA_DIR: defaulted(nonempty(string()), './data'),
  SMTP_URL: optional(Url(['smtp:', 'smtps:'])),
  MAIL_FROM: defaulted(nonempty(string()), 'Dashboard <no-reply@localhost>'),
  APP_URL: optional(Url(['http:', 'https:'])),
  SEED_DEMO: optional(Flag),
  JWT_SECRET: optional(refine(string(), 'secret', (v) => v.length >= 32 || 'must be at least 32 characters long')),
  STATIC_DIR: defaulted(nonempty(string()), 'dist'),
  SUPPORT_LINK: defaulted(Url(['https:', 'http:', 'tg:']), 'https://t.me/improvement_platform_support'),
  LOG_LEVEL: defaulted(enums(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'warn'),
  PASSWORD_SCRYPT_LOG_N: defaulted(Int(1, 22), 17),
  REFRESH_REUSE_GRACE_MS: defaulted(Int(0, 24 * 3600 * 1000), 10_000),
  INVOICE_PAYEE: optional(JsonPayee),
});

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema to work in (tests give each file its own); default: the server's search_path. */
  databaseSchema: string | undefined;
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  appUrl: string;
  /** undefined: seed an embedded database, not a PostgreSQL server. */
  seedDemo: boolean | undefined;
  jwtSecret: string | undefined;
  staticDir: string;
  supportLink: string;
  logLevel: LogLevel;
  passwordScryptLogN: number;
  refreshReuseGraceMs: number;
  /** Payment details on the verification invoice; undefined: the demo placeholders of invoice.ts. */
  invoicePayee: InvoicePayee | undefined;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const KEYS = Object.keys(EnvStruct.schema) as (keyof typeof EnvStruct.schema)[];

/** Reads the variables this service knows from `env`; empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, string> = {};
  for (const key of KEYS) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') raw[key] = value;
  }
  let e;
  try {
    e = create(raw, EnvStruct);
  } catch (error) {
    if (!(error instanceof StructError)) throw error;
    const lines = error.failures().map((f) => {
      const key = f.path.join('.');
      const reason = ['url', 'secret', 'schema', 'inn', 'kpp', 'bic', 'account'].includes(f.refinement ?? '') ? f.message : describe(f.type, f.refinement);
      const top = String(f.path[0] ?? key);
      return `  ${key}=${JSON.stringify(raw[top] ?? '')}: ${reason}`;
    });
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    dataDir: e.DATA_DIR,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    seedDemo: e.SEED_DEMO === undefined ? undefined : e.SEED_DEMO === '1',
    jwtSecret: e.JWT_SECRET,
    staticDir: e.STATIC_DIR,
    supportLink: e.SUPPORT_LINK,
    logLevel: e.LOG_LEVEL,
    passwordScryptLogN: e.PASSWORD_SCRYPT_LOG_N,
    refreshReuseGraceMs: e.REFRESH_REUSE_GRACE_MS,
    invoicePayee: e.INVOICE_PAYEE,
  };
}

function describe(type: string, refinement: string | undefined): string {
  if (refinement === 'min' || refinement === 'max' || type === 'integer') return 'must be a whole number in the allowed range';
  if (type === 'enums') return 'is not one of the allowed values';
  if (refinement === 'nonempty') return 'must not be empty';
  return 'is not valid';
}

/** Whether the demo data should be seeded: always on an embedded database unless SEED_DEMO=0; on a PostgreSQL server only with SEED_DEMO=1. */
export function shouldSeedDemo(config: Config): boolean {
  return config.seedDemo ?? config.databaseUrl === undefined;
}
