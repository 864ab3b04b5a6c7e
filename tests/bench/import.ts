// Benchmark: import of a 10,000-row XLSX staff list into the real main-service (docs/benchmarks.md,
// "Employee import"). The server runs as a child process (`node --import tsx server/index.ts`, embedded
// PGlite in a throwaway directory, demo company), so its memory is its own: before each step the peak RSS
// is reset (`5` written to /proc/<pid>/clear_refs) and read back as VmHWM of /proc/<pid>/status after it.
// Steps, each timed from the first byte sent to the answer: the first import (every row created, with its
// departments), the same file again (every row unchanged) and the preview (dryRun=1). Then, in this process,
// where the time goes: reading the file (parse.ts) and applying the rows (service.ts) on an in-memory PGlite,
// and on PostgreSQL as well when DATABASE_URL is set.
// Run: node --import tsx tests/bench/import.ts [--rows=10000]
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import writeXlsxFile from 'write-excel-file/node';
import { ImportPreview, ImportReport } from '../../src/domain/company';
import { detectTable } from '../../server/features/employees/import/mapping';
import { parseSpreadsheet } from '../../server/features/employees/import/parse';
import { importEmployees } from '../../server/features/employees/import/service';
import { createTestDatabase } from '../../server/test-support';
import { findFreePort, ROOT_DIR } from '../e2e/support/server';
import { report, round, timed } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const ROWS = arg('rows', 10_000);
const DEPARTMENTS = ['Литейный цех', 'Механический цех', 'Сборочный цех', 'Склад', 'ОТК', 'Транспортный участок', 'Бухгалтерия', 'Отдел кадров'];
const POSITIONS = ['Слесарь-ремонтник', 'Оператор станков с ЧПУ', 'Контролёр ОТК', 'Кладовщик', 'Мастер участка', 'Инженер-технолог'];

async function staffFile(): Promise<Buffer> {
  const header = ['Фамилия', 'Имя', 'Отчество', 'Должность', 'E-mail', 'Табельный номер', 'Подразделение'];
  const rows = Array.from({ length: ROWS }, (_, i) => [
    `Сотрудников${i}`,
    ['Иван', 'Мария', 'Олег', 'Анна'][i % 4] ?? 'Иван',
    ['Петрович', 'Сергеевна', 'Иванович', 'Олеговна'][i % 4] ?? '',
    POSITIONS[i % POSITIONS.length] ?? '',
    `bench.${i}@example.com`,
    // Numbers in the sheet, as HR files often hold them: they must come back as 100000, not 100000.0.
    100_000 + i,
    DEPARTMENTS[i % DEPARTMENTS.length] ?? '',
  ]);
  return writeXlsxFile([header, ...rows]).toBuffer();
}

function vm(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]) / 1024;
}

async function startServer(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-import-'));
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', APP_URL: url, DATA_DIR: dataDir, SEED_DEMO: '1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited during start:\n${output}`);
    try {
      if ((await fetch(`${url}/main-service/api/v1/health`)).ok) break;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`, { cause: error });
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (!child.pid) throw new Error('no pid');
  return { url, pid: child.pid, stop };
}

/** Parse and apply in this process: the two halves of an import, without HTTP. */
async function breakdown(databaseUrl: string | undefined) {
  const saved = process.env.DATABASE_URL;
  if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
  else delete process.env.DATABASE_URL;
  const database = await createTestDatabase();
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
  try {
    const parsed = await timed(() => parseSpreadsheet(new Uint8Array(file)));
    const table = detectTable(parsed.value.rows);
    const rows = parsed.value.rows.slice(table.headerIndex + 1);
    const company = await database.db.one<{ id: string }>(`INSERT INTO companies (name) VALUES ('Bench') RETURNING id`);
    const user = await database.db.one<{ id: string }>(`INSERT INTO users (email, password_hash, first_name, last_name, role) VALUES ('bench@example.com', '!', 'B', 'B', 'HR') RETURNING id`);
    if (!company || !user) throw new Error('no company');
    const apply = () => timed(() => database.db.transaction((tx) => importEmployees(tx, { companyId: company.id, userId: user.id, editorRoles: ['HR'], fileName: 'bench.xlsx', table: { columns: table.columns, rows } })));
    const created = await apply();
    const unchanged = await apply();
    if (created.value.report.created !== ROWS || unchanged.value.report.unchanged !== ROWS) throw new Error('the in-process import did not apply every row');
    return { database: database.db.kind, parseMs: round(parsed.ms), applyCreatedMs: round(created.ms), applyUnchangedMs: round(unchanged.ms) };
  } finally {
    await database.close();
  }
}

const file = await staffFile();
const server = await startServer();
try {
  const base = `${server.url}/main-service/api/v1`;
  const signIn = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'owner@demo.local', password: 'demo1234' }) });
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const me = (await (await fetch(`${base}/user`, { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { companies: { id: string }[] } };
  const companyId = me.data.companies[0]?.id;
  if (!companyId) throw new Error('the demo owner has no company');

  async function step(dryRun: boolean) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'staff-10000.xlsx');
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const rssBefore = vm(server.pid, 'VmRSS');
    const { ms, value } = await timed(async () => {
      const res = await fetch(`${base}/companies/${companyId}/employees/import${dryRun ? '?dryRun=1' : ''}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, Language: 'en' }, body: form });
      return { status: res.status, body: (await res.json()) as { data: unknown } };
    });
    const peak = vm(server.pid, 'VmHWM');
    return { ms: round(ms), rssBeforeMiB: round(rssBefore), peakRssMiB: round(peak), status: value.status, data: value.body.data };
  }

  // The first import comes first, so that its peak is not hidden under memory an earlier step left mapped.
  const idleRssMiB = round(vm(server.pid, 'VmRSS'));
  const first = await step(false);
  if (first.status !== 201 || !ImportReport.is(first.data) || first.data.created !== ROWS) throw new Error(`import failed: ${JSON.stringify(first).slice(0, 500)}`);
  const again = await step(false);
  if (again.status !== 201 || !ImportReport.is(again.data) || again.data.unchanged !== ROWS) throw new Error(`re-import failed: ${JSON.stringify(again).slice(0, 500)}`);
  const preview = await step(true);
  if (preview.status !== 200 || !ImportPreview.is(preview.data) || preview.data.totalRows !== ROWS) throw new Error(`preview failed: ${JSON.stringify(preview).slice(0, 500)}`);

  const figures = (s: typeof first) => ({ ms: s.ms, rssBeforeMiB: s.rssBeforeMiB, peakRssMiB: s.peakRssMiB, peakOverBeforeMiB: round(s.peakRssMiB - s.rssBeforeMiB) });
  report('import', {
    environment: `Node ${process.version}; main-service child process on PGlite (${server.url}), demo company`,
    rows: ROWS,
    fileBytes: file.length,
    idleRssMiB,
    firstImport: { ...figures(first), created: ROWS },
    reimport: { ...figures(again), unchanged: ROWS },
    preview: figures(preview),
    inProcess: [await breakdown(undefined), ...(process.env.DATABASE_URL ? [await breakdown(process.env.DATABASE_URL)] : [])],
  });
} finally {
  await server.stop();
}
