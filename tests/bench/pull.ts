// Benchmark: a first pull of 10,000 proposals into Dexie through src/lib/sync (struct checks, one transaction
// per page of 500 with its cursor, the unsent-changes check) against a plain `bulkPut` of the same rows, in
// Node on fake-indexeddb. The HTTP answers come from memory, so only the client's work is measured.
// Run: node --import tsx tests/bench/pull.ts [--rows=10000] [--runs=5]
import 'fake-indexeddb/auto';
import { AppDatabase } from '../../src/lib/db/database';
import type { HttpClient } from '../../src/lib/http';
import { PULL_PAGE_LIMIT, pullCompany } from '../../src/lib/sync/pull';
import { sampleSuggestion } from './sample';
import { median, report, round, timed } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const ROWS = arg('rows', 10_000);
const RUNS = arg('runs', 5);
const OWNER = '11111111-1111-4111-8111-111111111111';
const COMPANY = '22222222-2222-4222-8222-222222222222';
const DEPARTMENT = '33333333-3333-4333-8333-333333333333';

const rows = Array.from({ length: ROWS }, (_, i) => sampleSuggestion(i, COMPANY, DEPARTMENT, OWNER));

/** Serves the rows as `GET /sync/pull` pages; JSON round-trip so the client gets fresh objects, as from fetch. */
function memoryPullServer(): Pick<HttpClient, 'get'> {
  return {
    get: <T>(_url: string, params?: Record<string, string | number | boolean | undefined>) => {
      const start = Number(params?.cursor ?? 0);
      const limit = Number(params?.limit ?? PULL_PAGE_LIMIT);
      const slice = rows.slice(start, start + limit);
      const end = start + slice.length;
      const page = {
        changes: slice.map((row, i) => ({ seq: String(start + i + 1), table: 'suggestions', op: 'upsert', id: row.id, row })),
        nextCursor: String(end),
        hasMore: end < rows.length,
        reset: false,
      };
      return Promise.resolve(JSON.parse(JSON.stringify({ data: page })) as T);
    },
  };
}

let counter = 0;
async function freshDb(): Promise<AppDatabase> {
  counter += 1;
  const db = new AppDatabase(`bench-pull-${counter}`);
  await db.open();
  return db;
}

async function viaPull(): Promise<number> {
  const db = await freshDb();
  const { ms, value } = await timed(() => pullCompany({ db, http: memoryPullServer(), ownerUserId: OWNER, companyId: COMPANY }));
  if (value.upserts !== ROWS || (await db.suggestions.count()) !== ROWS) throw new Error('the pull did not store every row');
  db.close();
  await db.delete();
  return ms;
}

async function viaBulkPut(): Promise<number> {
  const db = await freshDb();
  // The same JSON round-trip as the pull gets, outside the timing.
  const owned = (JSON.parse(JSON.stringify(rows)) as typeof rows).map((row) => ({ ...row, ownerUserId: OWNER }));
  const { ms } = await timed(() => db.suggestions.bulkPut(owned));
  if ((await db.suggestions.count()) !== ROWS) throw new Error('bulkPut did not store every row');
  db.close();
  await db.delete();
  return ms;
}

// One warm-up of each, then alternate so neither side always runs on a warmer heap.
await viaPull();
await viaBulkPut();
const pulls: number[] = [];
const bulks: number[] = [];
for (let run = 0; run < RUNS; run += 1) {
  pulls.push(await viaPull());
  bulks.push(await viaBulkPut());
}
const pullMs = median(pulls);
const bulkMs = median(bulks);
report('pull-10k-node', {
  environment: `Node ${process.version}, fake-indexeddb`,
  rows: ROWS,
  pageSize: PULL_PAGE_LIMIT,
  runs: RUNS,
  pullMedianMs: round(pullMs),
  bulkPutMedianMs: round(bulkMs),
  ratio: round(pullMs / bulkMs, 2),
  pullRuns: pulls.map((v) => round(v)),
  bulkPutRuns: bulks.map((v) => round(v)),
});
