// Benchmark: does POST /auth/recovery-password take the same time for a known and an unknown e-mail
// (docs/benchmarks.md, "Recovery timing")? The real app in this process (app.inject, so no network noise), on
// an in-memory PGlite or on the PostgreSQL of DATABASE_URL. Known and unknown requests alternate, each from its
// own client address and to its own recipient, so no rate limit is reached and both do the counting and the
// enqueueing; the clock is moved an hour every round so the windows never fill. Reports the median and p90 of
// each, and how often a guess "slower means known" is right (50% is a coin).
// Run: node --import tsx tests/bench/recovery-timing.ts [--rounds=300]
import { performance } from 'node:perf_hooks';
import { createManualClock } from '../../server/clock';
import { hashPassword } from '../../server/auth/passwords';
import { api, createTestApp } from '../../server/test-support';
import { median, report, round } from './support';

const found = process.argv.find((a) => a.startsWith('--rounds='));
const ROUNDS = found ? Number(found.split('=')[1]) : 300;

const clock = createManualClock(new Date());
const t = await createTestApp({}, undefined, { clock });
const hash = await hashPassword('not used here', 10);
const known: string[] = [];
for (let i = 0; i < ROUNDS; i += 1) {
  const email = `known.${i}.${Date.now()}@bench.test`;
  await t.db.query(
    `INSERT INTO users (email, password_hash, first_name, last_name, role, authorities, email_verified_at) VALUES ($1, $2, 'Иван', 'Петров', 'EMPLOYEE', '{ROLE_EMPLOYEE}', now())`,
    [email, hash],
  );
  known.push(email);
}

async function ask(email: string, i: number): Promise<number> {
  const started = performance.now();
  const response = await t.app.inject({
    method: 'POST',
    url: api('/auth/recovery-password'),
    remoteAddress: `10.9.${Math.floor(i / 250)}.${i % 250}`,
    payload: { email },
  });
  const ms = performance.now() - started;
  if (response.statusCode !== 200) throw new Error(`recovery answered ${response.statusCode}: ${response.body}`);
  return ms;
}

const knownMs: number[] = [];
const unknownMs: number[] = [];
let guessedRight = 0;
// Warm-up, not counted.
for (let i = 0; i < 20; i += 1) await ask(`warm.${i}@bench.test`, 60_000 + i);
for (let i = 0; i < ROUNDS; i += 1) {
  clock.advance(3600_000);
  const first = i % 2 === 0;
  const a = first ? await ask(known[i] ?? '', 2 * i) : await ask(`unknown.${i}@bench.test`, 2 * i);
  const b = first ? await ask(`unknown.${i}@bench.test`, 2 * i + 1) : await ask(known[i] ?? '', 2 * i + 1);
  const [k, u] = first ? [a, b] : [b, a];
  knownMs.push(k);
  unknownMs.push(u);
  if (k > u) guessedRight += 1;
}
const p90 = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length * 0.9)] ?? NaN;
report('recovery-timing', {
  database: t.db.kind,
  rounds: ROUNDS,
  knownMedianMs: round(median(knownMs)),
  unknownMedianMs: round(median(unknownMs)),
  knownP90Ms: round(p90(knownMs)),
  unknownP90Ms: round(p90(unknownMs)),
  guessRightShare: round(guessedRight / ROUNDS),
  jobsEnqueued: Number((await t.db.one<{ n: string }>(`SELECT count(*)::text AS n FROM jobs WHERE kind = 'auth.recovery'`))?.n),
});
await t.close();
