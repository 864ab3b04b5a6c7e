// In-page benchmarks, called by tests/bench/chromium.ts through `window.bench`. Timings are taken here with
// performance.now, around the calls the app makes, on the browser's real IndexedDB.
import { AppDatabase } from '../../../src/lib/db/database';
import type { HttpClient } from '../../../src/lib/http';
import { pullCompany } from '../../../src/lib/sync/pull';
import { submitSuggestion } from '../../../src/features/suggestions/store';
import { downscaleImage } from '../../../src/ui/file-upload/downscale';
import { sampleSuggestion } from '../sample';

const OWNER = '11111111-1111-4111-8111-111111111111';
const COMPANY = '22222222-2222-4222-8222-222222222222';
const DEPARTMENT = '33333333-3333-4333-8333-333333333333';

/** A 4000x3000 camera-like photo (noise, so JPEG cannot shrink it to nothing), downscaled as the form does. */
async function cameraPhoto(seed: number): Promise<{ data: ArrayBuffer; type: string; name: string }> {
  const canvas = new OffscreenCanvas(4000, 3000);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  const tile = context.createImageData(400, 300);
  let state = seed * 2654435761;
  for (let i = 0; i < tile.data.length; i += 1) {
    state = (state * 1103515245 + 12345) >>> 0;
    tile.data[i] = i % 4 === 3 ? 255 : state >>> 24;
  }
  for (let x = 0; x < 4000; x += 400) for (let y = 0; y < 3000; y += 300) context.putImageData(tile, x, y);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.92 });
  const file = await downscaleImage(new File([blob], `IMG_${seed}.jpg`, { type: 'image/jpeg' }));
  return { data: await file.arrayBuffer(), type: file.type, name: file.name };
}

/** The proposal's fields as the form gives them (run `run` gets a title of its own). */
function draftOf(run: number) {
  return {
    companyId: COMPANY,
    title: `Предложение ${run}`,
    problem: 'Переналадка занимает слишком много времени.',
    solution: 'Стандартизировать оснастку.',
    expectedEffect: 'Минус 20 минут на смену.',
    effectEstimate: { amountMinor: 150_000_00, currency: 'RUB' as const },
    departmentId: DEPARTMENT,
  };
}

interface SubmitFigures {
  /** The measured runs, warm-up excluded. */
  runsMs: number[];
  /** The warm-up runs (the first one also asks the persistence question of this page). */
  warmUpMs: number[];
  photoBytes: number[];
}

/**
 * `submitSuggestion` with `photoCount` photos (0 or 3), timed from the call until it returns (the transaction
 * committed), after `warmUps` runs that are not counted; each run's stored rows are checked afterwards.
 */
async function submitRuns(runs: number, photoCount: number, warmUps = 1): Promise<SubmitFigures> {
  const db = new AppDatabase(`bench-submit-${photoCount}`);
  await db.open();
  const photos: Array<{ data: ArrayBuffer; type: string; name: string }> = [];
  for (let seed = 1; seed <= photoCount; seed += 1) photos.push(await cameraPhoto(seed));
  const runsMs: number[] = [];
  const warmUpMs: number[] = [];
  for (let run = -warmUps; run < runs; run += 1) {
    const copies = photos.map((p) => ({ ...p, data: p.data.slice(0) }));
    const start = performance.now();
    const { id } = await submitSuggestion(draftOf(run), copies, { db, author: { id: OWNER, fullName: 'Иванов Иван' } });
    (run < 0 ? warmUpMs : runsMs).push(performance.now() - start);
    const row = await db.outbox.where('[ownerUserId+entityKey]').equals([OWNER, `suggestions:${id}`]).first();
    if (row?.fileIds.length !== photoCount) throw new Error(`the proposal was not stored with ${photoCount} photos`);
  }
  db.close();
  await db.delete();
  return { runsMs, warmUpMs, photoBytes: photos.map((p) => p.data.byteLength) };
}

type ProfiledWay = 'appMs' | 'dexieMs' | 'idbDefaultMs' | 'idbStrictMs' | 'idbRelaxedMs';

/** Where the time of a no-photo submit goes: the same two rows written five ways, alternating, per run. */
interface SubmitProfile extends Record<ProfiledWay, number[]> {
  /** `submitSuggestion` as the form calls it (the persistence question already answered in this page). */
  appMs: number[];
  /** The same rows through a bare Dexie transaction over the same tables (no outbox helpers). */
  dexieMs: number[];
  /** The same rows through plain IndexedDB, the browser's default durability, until `complete`. */
  idbDefaultMs: number[];
  /** The same with `durability: 'strict'` (an fsync before `complete`). */
  idbStrictMs: number[];
  /** The same with `durability: 'relaxed'`. */
  idbRelaxedMs: number[];
  /** `navigator.storage.persisted()` and `persist()` as answered on this page (ms, once each). */
  persistedMs: number;
  persistMs: number;
  persistAnswer: boolean | null;
}

async function submitProfile(runs: number): Promise<SubmitProfile> {
  const db = new AppDatabase('bench-submit-profile');
  await db.open();
  let start = performance.now();
  await navigator.storage.persisted();
  const persistedMs = performance.now() - start;
  start = performance.now();
  const persistAnswer = await Promise.race([navigator.storage.persist(), new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000))]);
  const persistMs = performance.now() - start;
  const author = { id: OWNER, fullName: 'Иванов Иван' };
  // One app submit first, so the page's persistence question is answered before anything is timed.
  await submitSuggestion(draftOf(-1), [], { db, author });
  const template = await db.outbox.toCollection().first();
  const suggestion = await db.suggestions.toCollection().first();
  if (!template || !suggestion) throw new Error('the warm-up submit stored nothing');
  const fresh = (run: number, way: string) => {
    const id = crypto.randomUUID();
    const { seq: _seq, ...outboxRow } = template;
    return {
      suggestion: { ...suggestion, id, title: `${way} ${run}` },
      outbox: { ...outboxRow, id: crypto.randomUUID(), entityKey: `suggestions:${id}` },
    };
  };
  const idb = db.backendDB();
  const rawWrite = (run: number, way: string, durability: IDBTransactionDurability | undefined) =>
    new Promise<void>((resolve, reject) => {
      const rows = fresh(run, way);
      const tx = durability ? idb.transaction(['suggestions', 'outbox', 'files'], 'readwrite', { durability }) : idb.transaction(['suggestions', 'outbox', 'files'], 'readwrite');
      tx.objectStore('suggestions').add(rows.suggestion);
      tx.objectStore('outbox').add(rows.outbox);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error ?? new Error('transaction failed'));
      tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
    });
  const ways: Record<ProfiledWay, (run: number) => Promise<unknown>> = {
    appMs: (run) => submitSuggestion(draftOf(run), [], { db, author }),
    dexieMs: (run) => {
      const rows = fresh(run, 'dexie');
      return db.transaction('rw', [db.suggestions, db.outbox, db.files], async () => {
        await db.suggestions.add(rows.suggestion);
        await db.outbox.add(rows.outbox);
      });
    },
    idbDefaultMs: (run) => rawWrite(run, 'idb-default', undefined),
    idbStrictMs: (run) => rawWrite(run, 'idb-strict', 'strict'),
    idbRelaxedMs: (run) => rawWrite(run, 'idb-relaxed', 'relaxed'),
  };
  const names = Object.keys(ways) as ProfiledWay[];
  const figures = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<ProfiledWay, number[]>;
  // One warm-up round, not counted; the order rotates every round so no way always runs first.
  for (let run = -1; run < runs; run += 1) {
    for (let i = 0; i < names.length; i += 1) {
      const name = names[(i + Math.max(run, 0)) % names.length] as ProfiledWay;
      const started = performance.now();
      await ways[name](run);
      if (run >= 0) figures[name].push(performance.now() - started);
    }
  }
  db.close();
  await db.delete();
  return { ...figures, persistedMs, persistMs, persistAnswer };
}

async function pullRuns(rowCount: number, runs: number): Promise<{ pullMs: number[]; bulkPutMs: number[] }> {
  const rows = Array.from({ length: rowCount }, (_, i) => sampleSuggestion(i, COMPANY, DEPARTMENT, OWNER));
  const http: Pick<HttpClient, 'get'> = {
    get: <T>(_url: string, params?: Record<string, string | number | boolean | undefined>) => {
      const start = Number(params?.cursor ?? 0);
      const slice = rows.slice(start, start + Number(params?.limit ?? 500));
      const end = start + slice.length;
      const changes = slice.map((row, i) => ({ seq: String(start + i + 1), table: 'suggestions', op: 'upsert', id: row.id, row }));
      return Promise.resolve(JSON.parse(JSON.stringify({ data: { changes, nextCursor: String(end), hasMore: end < rows.length, reset: false } })) as T);
    },
  };
  const pullMs: number[] = [];
  const bulkPutMs: number[] = [];
  for (let run = -1; run < runs; run += 1) {
    const pulled = new AppDatabase(`bench-pull-${run}`);
    let start = performance.now();
    await pullCompany({ db: pulled, http, ownerUserId: OWNER, companyId: COMPANY });
    const pull = performance.now() - start;
    if ((await pulled.suggestions.count()) !== rowCount) throw new Error('the pull did not store every row');
    pulled.close();
    await pulled.delete();

    const bulk = new AppDatabase(`bench-bulk-${run}`);
    await bulk.open();
    const owned = (JSON.parse(JSON.stringify(rows)) as typeof rows).map((row) => ({ ...row, ownerUserId: OWNER }));
    start = performance.now();
    await bulk.suggestions.bulkPut(owned);
    const put = performance.now() - start;
    bulk.close();
    await bulk.delete();
    // Run -1 is the warm-up.
    if (run >= 0) {
      pullMs.push(pull);
      bulkPutMs.push(put);
    }
  }
  return { pullMs, bulkPutMs };
}

declare global {
  interface Window {
    bench: { submitRuns: typeof submitRuns; submitProfile: typeof submitProfile; pullRuns: typeof pullRuns };
  }
}

window.bench = { submitRuns, submitProfile, pullRuns };
const state = document.getElementById('state');
if (state) state.textContent = 'ready';
