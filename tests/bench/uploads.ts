// Benchmark: 8 parallel 10 MiB image uploads by one employee against the real main-service (issue 10 item 7,
// docs/benchmarks.md "Uploads"). The server runs as a child process (`node --import tsx server/index.ts`) on
// embedded PGlite in a throwaway directory, or on the PostgreSQL of DATABASE_URL in a fresh schema dropped
// afterwards, so its memory is its own. Before each round the peak RSS is reset (`5` written to
// /proc/<pid>/clear_refs) and read back as VmHWM of /proc/<pid>/status when every answer is in; RSS is read
// again 2 s later. Two rounds, so memory a first round leaves mapped and memory a second round adds show apart.
// Every upload must answer 200; the figures are printed as the last line (JSON), never asserted.
// Run: node --import tsx tests/bench/uploads.ts [--parallel=8] [--megabytes=10] [--rounds=2]
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --import tsx tests/bench/uploads.ts
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { findFreePort, ROOT_DIR } from '../e2e/support/server';
import { report, round, timed } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const PARALLEL = arg('parallel', 8);
const MEGABYTES = arg('megabytes', 10);
const ROUNDS = arg('rounds', 2);
const DATABASE_URL = process.env.DATABASE_URL;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A file of exactly MEGABYTES MiB that the server takes for a PNG: the signature, then random bytes. */
function image(): Buffer {
  const bytes = randomBytes(MEGABYTES * 1024 * 1024);
  PNG_SIGNATURE.copy(bytes);
  return bytes;
}

function vm(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match?.[1]) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-uploads-'));
  const schema = `bench_uploads_${process.pid}`;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', APP_URL: url, DATA_DIR: dataDir, SEED_DEMO: '1', LOG_LEVEL: 'warn' };
  delete env.SMTP_URL;
  if (DATABASE_URL) {
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    env.DATABASE_SCHEMA = schema;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dataDir, { recursive: true, force: true });
    if (DATABASE_URL) {
      const admin = new pg.Client({ connectionString: DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  };
  const deadline = Date.now() + 120_000;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited during start:\n${output}`);
      try {
        if ((await fetch(`${url}/main-service/api/v1/health`)).ok) break;
      } catch (error) {
        if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`, { cause: error });
      }
      await sleep(250);
    }
    if (!child.pid) throw new Error('no pid');
  } catch (error) {
    // Nothing of a failed start is left behind: the process, its data directory, its schema.
    await stop();
    throw error;
  }
  return { url, pid: child.pid, stop };
}

const files = Array.from({ length: PARALLEL }, image);
const server = await startServer();
try {
  const base = `${server.url}/main-service/api/v1`;
  const signIn = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'employee@demo.local', password: 'demo1234' }) });
  if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  const { access_token: token } = (await signIn.json()) as { access_token: string };
  const auth = { authorization: `Bearer ${token}` };
  const me = (await (await fetch(`${base}/user`, { headers: auth })).json()) as { data: { companies: { id: string }[] } };
  const companyId = me.data.companies[0]?.id;
  if (!companyId) throw new Error('the demo employee has no company');
  const departments = (await (await fetch(`${base}/companies/${companyId}/departments`, { headers: auth })).json()) as { data: { id: string }[] };
  const departmentId = departments.data[0]?.id;
  if (!departmentId) throw new Error('the demo company has no department');
  // Let start-up work (seed, first requests' compilation) settle before the idle figure.
  await sleep(3000);
  const idleRssMiB = round(vm(server.pid, 'VmRSS'));

  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
    const rssBeforeMiB = round(vm(server.pid, 'VmRSS'));
    const { ms, value: imageIds } = await timed(() =>
      Promise.all(
        files.map(async (bytes, i) => {
          const form = new FormData();
          form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `photo-${r}-${i}.png`);
          const res = await fetch(`${base}/files/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}`, Language: 'en' }, body: form });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`upload ${r}/${i} answered ${res.status}: ${body}`);
          return (JSON.parse(body) as { data: { imageId: string } }).data.imageId;
        }),
      ),
    );
    const peakRssMiB = round(vm(server.pid, 'VmHWM'));
    await sleep(2000);
    const rssAfterMiB = round(vm(server.pid, 'VmRSS'));
    rounds.push({ ms: round(ms), uploads: imageIds.length, rssBeforeMiB, peakRssMiB, peakOverBeforeMiB: round(peakRssMiB - rssBeforeMiB), rssAfterMiB });
    // The quota on unattached files (100 MiB) would refuse a second round: attach this round's images to
    // proposals (three each), as the app does right after uploading them. Not measured.
    for (let i = 0; i < imageIds.length; i += 3) {
      const res = await fetch(`${base}/companies/${companyId}/suggestions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', Language: 'en' },
        body: JSON.stringify({ title: `Bench ${r}-${i}`, problem: 'p', solution: 's', expectedEffect: 'e', departmentId, imageIds: imageIds.slice(i, i + 3) }),
      });
      if (res.status !== 201) throw new Error(`attaching images answered ${res.status}: ${await res.text()}`);
    }
  }

  report('uploads', {
    environment: `Node ${process.version}; main-service child process on ${DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'PGlite'} (${server.url}), demo employee`,
    parallel: PARALLEL,
    fileMiB: MEGABYTES,
    idleRssMiB,
    rounds,
  });
} finally {
  await server.stop();
}
