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

async function submitRuns(runs: number): Promise<{ runsMs: number[]; photoBytes: number[] }> {
  const db = new AppDatabase('bench-submit');
  await db.open();
  const photos = [await cameraPhoto(1), await cameraPhoto(2), await cameraPhoto(3)];
  const runsMs: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const draft = {
      companyId: COMPANY,
      title: `Предложение ${run}`,
      problem: 'Переналадка занимает слишком много времени.',
      solution: 'Стандартизировать оснастку.',
      expectedEffect: 'Минус 20 минут на смену.',
      effectEstimate: { amountMinor: 150_000_00, currency: 'RUB' as const },
      departmentId: DEPARTMENT,
    };
    const copies = photos.map((p) => ({ ...p, data: p.data.slice(0) }));
    const start = performance.now();
    const { id } = await submitSuggestion(draft, copies, { db, author: { id: OWNER, fullName: 'Иванов Иван' } });
    runsMs.push(performance.now() - start);
    const row = await db.outbox.where('[ownerUserId+entityKey]').equals([OWNER, `suggestions:${id}`]).first();
    if (row?.fileIds.length !== 3) throw new Error('the proposal was not stored with three photos');
  }
  db.close();
  await db.delete();
  return { runsMs, photoBytes: photos.map((p) => p.data.byteLength) };
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
    bench: { submitRuns: typeof submitRuns; pullRuns: typeof pullRuns };
  }
}

window.bench = { submitRuns, pullRuns };
const state = document.getElementById('state');
if (state) state.textContent = 'ready';
