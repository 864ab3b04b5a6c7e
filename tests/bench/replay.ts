// Benchmark: replay of 1,000 queued proposals (and, apart, 30 with three photos each) against the real
// main-service on this machine (a child process on a free port, embedded PGlite in a throwaway directory,
// demo company), through the client's own path: src/features/suggestions/store.ts queues them in Dexie
// (fake-indexeddb), the outbox replayer of src/lib/outbox sends them with Node's fetch.
// Run: node --import tsx tests/bench/replay.ts [--items=1000] [--photo-items=30]
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { AppDatabase } from '../../src/lib/db/database';
import { createHttpClient } from '../../src/lib/http';
import { createReplayer } from '../../src/lib/outbox/replayer';
import { pullCompany } from '../../src/lib/sync/pull';
import type { TokenStore } from '../../src/lib/token-store';
import { submitSuggestion } from '../../src/features/suggestions/store';
import { loadOutboxSuccessHandler } from '../../src/app/outbox-kinds';
import { startServer } from '../e2e/support/server';
import { report, round, timed } from './support';

const arg = (name: string, fallback: number) => {
  const found = process.argv.find((a) => a.startsWith(`--${name}=`));
  return found ? Number(found.split('=')[1]) : fallback;
};
const ITEMS = arg('items', 1_000);
const PHOTO_ITEMS = arg('photo-items', 30);
const PREFIX = '/main-service';

function memoryTokens(): TokenStore {
  let pair: { access: string | null; refresh: string | null } = { access: null, refresh: null };
  return {
    getAccess: () => pair.access,
    getRefresh: () => pair.refresh,
    set: (p) => {
      pair = { access: p.access_token, refresh: p.refresh_token };
    },
    clear: () => {
      pair = { access: null, refresh: null };
    },
  };
}

const server = await startServer({ seedDemo: true });
try {
  const origin = server.url;
  const fetchHere: typeof fetch = (input, init) => fetch(typeof input === 'string' && input.startsWith('/') ? `${origin}${input}` : input, init);
  const tokens = memoryTokens();
  const http = createHttpClient({ prefix: PREFIX, tokens, fetch: fetchHere, getLocale: () => 'en', onAuthFailure: () => undefined });
  const login = await http.post<{ access_token: string; refresh_token: string }>('/api/v1/auth/login', { email: 'employee@demo.local', password: 'demo1234' }, { minDuration: 0 });
  if (!login) throw new Error('sign-in failed');
  tokens.set(login);
  const me = await http.get<{ data: { id: string; fullName: string; companies: Array<{ id: string }> } }>('/api/v1/user', undefined, { minDuration: 0 });
  const user = me?.data;
  const companyId = user?.companies[0]?.id;
  if (!user || !companyId) throw new Error('the demo employee has no company');

  const db = new AppDatabase('bench-replay');
  await db.open();
  await pullCompany({ db, http, ownerUserId: user.id, companyId });
  const department = await db.departments.where('[ownerUserId+companyId]').equals([user.id, companyId]).first();
  if (!department) throw new Error('the pull brought no department');

  const draft = (i: number) => ({
    companyId,
    title: `Replay ${i}`,
    problem: 'Переналадка занимает слишком много времени.',
    solution: 'Стандартизировать оснастку.',
    expectedEffect: 'Минус 20 минут на смену.',
    effectEstimate: null,
    departmentId: department.id,
  });
  const context = { db, author: { id: user.id, fullName: user.fullName }, ensurePersistent: () => Promise.resolve(true) };
  const photo = readFileSync(new URL('../../public/icons/icon-192.png', import.meta.url));
  const photoBuffer = photo.buffer.slice(photo.byteOffset, photo.byteOffset + photo.byteLength);

  const replayer = createReplayer({
    db,
    http,
    getOwnerUserId: () => user.id,
    clock: { now: () => Date.now() },
    random: Math.random,
    handlers: loadOutboxSuccessHandler,
  });

  async function run(count: number, photos: number) {
    for (let i = 0; i < count; i += 1) {
      const files = Array.from({ length: photos }, (_, p) => ({ data: photoBuffer.slice(0), type: 'image/png', name: `photo-${i}-${p}.png` }));
      await submitSuggestion(draft(i), files, context);
    }
    const { ms, value } = await timed(() => replayer.drain());
    if (value.sent !== count || (await db.outbox.count()) !== 0) throw new Error(`replay sent ${value.sent} of ${count}: ${JSON.stringify(value)}`);
    return { items: count, ms: round(ms), itemsPerSecond: round((count / ms) * 1000, 1) };
  }

  const plain = await run(ITEMS, 0);
  const withPhotos = await run(PHOTO_ITEMS, 3);
  report('replay', {
    environment: `Node ${process.version}, fake-indexeddb client; main-service child process on PGlite (${origin})`,
    plain,
    withThreePhotos: { ...withPhotos, requestsPerItem: 4 },
  });
  db.close();
  await db.delete();
} finally {
  await server.stop();
}
