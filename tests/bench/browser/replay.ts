// In-page side of tests/bench/replay-browser.ts (`window.replayBench`): the same proposals queued and replayed
// three ways against the main-service that serves this page (same origin, no proxy):
// - 'outbox': submitSuggestion of src/features/suggestions/store.ts into Dexie, sent by the outbox replayer
//   (createReplayer of src/lib/outbox/replayer.ts) with `batch: false`: one request per row, as before batches;
// - 'push': the same queueing, sent by the same replayer as the page and the worker run it (the registry's
//   success handlers and `isPushableOutboxRow`): batches of up to 100 through POST /sync/push;
// - 'workbox': the same requests (same bodies, each with its Idempotency-Key and bearer token) queued in
//   workbox-background-sync's Queue and replayed with replayRequests().
// Both replayers run under the Web Lock, as in the app. Timings are taken here with performance.now around
// the replay call only (and around each request, for the time spent waiting on the server); queueing is timed
// apart.
import { Queue } from 'workbox-background-sync';
import type { SuggestionInput } from '../../../src/domain/suggestion';
import { AppDatabase } from '../../../src/lib/db/database';
import { createHttpClient, type HttpClient } from '../../../src/lib/http';
import { createReplayer } from '../../../src/lib/outbox/replayer';
import type { TokenStore } from '../../../src/lib/token-store';
import { submitSuggestion, suggestionsPath, type SuggestionDraft } from '../../../src/features/suggestions/store';
import { isPushableOutboxRow, loadOutboxSuccessHandler } from '../../../src/app/outbox-kinds';

const PREFIX = '/main-service';

export interface BenchSession {
  user: { id: string; fullName: string };
  access: string;
  refresh: string;
  companyId: string;
  departmentId: string;
}

export interface Queued {
  ids: string[];
  queueMs: number;
}

export interface Replayed {
  ms: number;
  sent: number;
  /** Requests for the proposals (the push's batches, or one per item). */
  requests: number;
  /** What is still queued on the device afterwards (expected 0). */
  left: number;
  detail: unknown;
}

let session: BenchSession | null = null;

function current(): BenchSession {
  if (!session) throw new Error('replayBench.start was not called');
  return session;
}

function memoryTokens(access: string, refresh: string): TokenStore {
  let pair: { access: string | null; refresh: string | null } = { access, refresh };
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

/** The app's one transport (bearer token, Language, deadline, shared refresh), as the replayer gets it. */
function clientOf(s: BenchSession): { http: HttpClient } {
  const tokens = memoryTokens(s.access, s.refresh);
  return { http: createHttpClient({ prefix: PREFIX, tokens, fetch: (input, init) => fetch(input, init), getLocale: () => 'en', onAuthFailure: () => undefined }) };
}

function draft(s: BenchSession, tag: string, i: number): SuggestionDraft {
  return {
    companyId: s.companyId,
    title: `${tag} ${i}`,
    problem: 'Переналадка занимает слишком много времени.',
    solution: 'Стандартизировать оснастку.',
    expectedEffect: 'Минус 20 минут на смену.',
    effectEstimate: null,
    departmentId: s.departmentId,
  };
}

const dbName = (tag: string) => `bench-replay-${tag}`;

/** Queues `count` proposals through the page code (one Dexie transaction each, as a user's Submit). */
async function queueOutbox(tag: string, count: number): Promise<Queued> {
  const s = current();
  const db = new AppDatabase(dbName(tag));
  await db.open();
  const ids: string[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i += 1) {
    const { id } = await submitSuggestion(draft(s, tag, i), [], { db, author: s.user, ensurePersistent: () => Promise.resolve(true) });
    ids.push(id);
  }
  const queueMs = performance.now() - start;
  db.close();
  return { ids, queueMs };
}

async function finish(db: AppDatabase): Promise<number> {
  const left = await db.outbox.count();
  db.close();
  await db.delete();
  return left;
}

/**
 * The transport with a count of its requests and the time spent waiting for their answers (the rest of a
 * replay is the device's own work).
 */
function counted(http: HttpClient): { http: Pick<HttpClient, 'exchange'>; stats: { requests: number; requestMs: number } } {
  const stats = { requests: 0, requestMs: 0 };
  return {
    stats,
    http: {
      exchange: async (request) => {
        stats.requests += 1;
        const asked = performance.now();
        try {
          return await http.exchange(request);
        } finally {
          stats.requestMs += performance.now() - asked;
        }
      },
    },
  };
}

/** The outbox replayer of the app: in batches through the push, or (`batch: false`) one request per row. */
async function replay(tag: string, batch: boolean): Promise<Replayed> {
  const s = current();
  const db = new AppDatabase(dbName(tag));
  await db.open();
  const { http, stats } = counted(clientOf(s).http);
  const replayer = createReplayer({
    db,
    http,
    getOwnerUserId: () => s.user.id,
    clock: { now: () => Date.now() },
    random: Math.random,
    locks: navigator.locks,
    handlers: loadOutboxSuccessHandler,
    isPushable: isPushableOutboxRow,
    batch,
  });
  const start = performance.now();
  const result = await replayer.drain();
  const ms = performance.now() - start;
  return { ms, sent: result.sent, requests: stats.requests, left: await finish(db), detail: { ...result, requestMs: stats.requestMs } };
}

/** The path before batches: the outbox replayer, one request per row. */
const replayOutbox = (tag: string) => replay(tag, false);

/** The replayer as the page and the worker run it: batches of up to 100 through POST /sync/push. */
const replayPush = (tag: string) => replay(tag, true);

/** Workbox's queue needs `self.registration`, which a window lacks: an empty one turns Background Sync off. */
function ensureRegistrationShim(): void {
  if (!('registration' in self)) Object.defineProperty(self, 'registration', { value: {}, configurable: true });
}

const queues = new Map<string, Queue>();

/** The same requests as the outbox would send (body, Idempotency-Key, bearer token), into Workbox's queue. */
async function queueWorkbox(tag: string, count: number): Promise<Queued> {
  const s = current();
  ensureRegistrationShim();
  // onSync does nothing: replaying is what the benchmark times, when it asks for it.
  const queue = new Queue(`bench-replay-${tag}`, { forceSyncFallback: true, onSync: () => Promise.resolve() });
  queues.set(tag, queue);
  const ids: string[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i += 1) {
    const id = crypto.randomUUID();
    const d = draft(s, tag, i);
    const body: SuggestionInput = {
      id,
      title: d.title,
      problem: d.problem,
      solution: d.solution,
      expectedEffect: d.expectedEffect,
      effectEstimate: d.effectEstimate,
      departmentId: d.departmentId,
      goalId: null,
      imageIds: [],
      submittedAt: new Date().toISOString(),
    };
    const request = new Request(`${PREFIX}${suggestionsPath(s.companyId)}`, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        Language: 'en',
        Authorization: `Bearer ${s.access}`,
        'Idempotency-Key': crypto.randomUUID(),
      },
      body: JSON.stringify(body),
    });
    await queue.pushRequest({ request });
    ids.push(id);
  }
  return { ids, queueMs: performance.now() - start };
}

async function replayWorkbox(tag: string): Promise<Replayed> {
  const queue = queues.get(tag);
  if (!queue) throw new Error(`no Workbox queue ${tag}`);
  const before = await queue.size();
  const start = performance.now();
  await queue.replayRequests();
  const ms = performance.now() - start;
  const left = await queue.size();
  return { ms, sent: before - left, requests: before, left, detail: null };
}

function start(s: BenchSession): void {
  session = s;
}

const replayBench = { start, queueOutbox, replayOutbox, replayPush, queueWorkbox, replayWorkbox };

declare global {
  interface Window {
    replayBench: typeof replayBench;
  }
}

window.replayBench = replayBench;
const state = document.getElementById('state');
if (state) state.textContent = 'ready';
