// What the device holds, read raw from the page in any engine (IndexedDB as the app wrote it, Cache Storage,
// the token mirror), and what the server holds, read straight from the server (not through the proxy), so a
// test compares the two without trusting the app's own screens.
import { randomUUID } from 'node:crypto';
import { sha256 } from './photos';
import type { Engine } from './engines';
import { projectBody as serverProjectBody } from '../../../server/features/projects/project-body';

export interface DeviceOutboxRow {
  id: string;
  title: unknown;
  entityKey: string;
  status: string;
  ownerUserId: string;
  fileIds: string[];
  /** sha-256 of each photo's bytes as stored in `files` ('missing' for a file id without a row). */
  photoSha256: string[];
}

/** What the offline tests read of an outbox row (`storeRows<OutboxEntry>(engine, 'outbox')`). */
export interface OutboxEntry {
  kind: string;
  status: string;
  entityKey: string;
}

/** Every row of one store of the app's IndexedDB (`dashboard`), as stored; none when the store does not exist yet. */
export async function storeRows<T>(engine: Engine, store: string): Promise<T[]> {
  const rows = await engine.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    try {
      if (!db.objectStoreNames.contains(name)) return [];
      return await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction(name, 'readonly').objectStore(name).getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error ?? new Error(`reading ${name} failed`));
      });
    } finally {
      db.close();
    }
  }, store);
  return rows as T[];
}

/** The outbox rows of the app's IndexedDB (`dashboard`), with the sha-256 of the photos each row carries. */
export async function deviceOutbox(engine: Engine): Promise<DeviceOutboxRow[]> {
  // The bytes come back as base64 and are hashed here: WebDriver carries only JSON, and this leaves
  // crypto.subtle out of what the engines must offer.
  const raw = await engine.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    try {
      if (!db.objectStoreNames.contains('outbox')) return [];
      const readAll = (store: string) =>
        new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store, 'readonly').objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result as unknown[]);
          request.onerror = () => reject(request.error ?? new Error(`reading ${store} failed`));
        });
      const rows = (await readAll('outbox')) as Array<{ id: string; entityKey: string; status: string; ownerUserId: string; fileIds?: string[]; body: { title?: unknown } | null }>;
      const files = new Map(((await readAll('files')) as Array<{ id: string; data: ArrayBuffer | Blob }>).map((file) => [file.id, file.data]));
      const base64 = async (data: ArrayBuffer | Blob) => {
        const bytes = new Uint8Array(data instanceof Blob ? await data.arrayBuffer() : data);
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        return btoa(binary);
      };
      return Promise.all(
        rows.map(async (row) => ({
          id: row.id,
          title: row.body?.title ?? null,
          entityKey: row.entityKey,
          status: row.status,
          ownerUserId: row.ownerUserId,
          fileIds: row.fileIds ?? [],
          photos: await Promise.all((row.fileIds ?? []).map(async (id) => {
            const data = files.get(id);
            return data ? base64(data) : null;
          })),
        })),
      );
    } finally {
      db.close();
    }
  }, null);
  return raw.map(({ photos, ...row }) => ({
    ...row,
    photoSha256: photos.map((photo) => (photo === null ? 'missing' : sha256(Buffer.from(photo, 'base64')))),
  }));
}

/** Every row of every store of the app's IndexedDB that has an `ownerUserId`, as { store, ownerUserId, key }. */
export async function ownedRows(engine: Engine): Promise<Array<{ store: string; ownerUserId: string; id: string; entityKey: string | null }>> {
  return engine.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    try {
      const found: Array<{ store: string; ownerUserId: string; id: string; entityKey: string | null }> = [];
      for (const store of [...db.objectStoreNames]) {
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store, 'readonly').objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result as unknown[]);
          request.onerror = () => reject(request.error ?? new Error(`reading ${store} failed`));
        });
        for (const row of rows as Array<Record<string, unknown>>) {
          if (typeof row.ownerUserId !== 'string') continue;
          const id = typeof row.id === 'string' ? row.id : typeof row.companyId === 'string' ? `company:${row.companyId}` : '';
          found.push({ store, ownerUserId: row.ownerUserId, id, entityKey: typeof row.entityKey === 'string' ? row.entityKey : null });
        }
      }
      return found;
    } finally {
      db.close();
    }
  }, null);
}

/** Rows in the app's IndexedDB store `store` (e.g. departments), 0 when the store is not there yet. */
export async function storeCount(engine: Engine, store: string): Promise<number> {
  return engine.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    try {
      if (!db.objectStoreNames.contains(name)) return 0;
      return await new Promise<number>((resolve, reject) => {
        const request = db.transaction(name, 'readonly').objectStore(name).count();
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error ?? new Error('count failed'));
      });
    } finally {
      db.close();
    }
  }, store);
}

/** The URLs held in the Cache Storage cache `name` (none when it does not exist). */
export async function cachedUrls(engine: Engine, name: string): Promise<string[]> {
  return engine.evaluate(async (cacheName) => {
    if (!(await caches.has(cacheName))) return [];
    const cache = await caches.open(cacheName);
    return (await cache.keys()).map((request) => request.url);
  }, name);
}

/** The IndexedDB token mirror the service worker reads (idb-keyval database `auth-tokens`, store `tokens`). */
export async function mirroredTokens(engine: Engine): Promise<Record<string, unknown>> {
  return engine.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('auth-tokens');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    try {
      if (!db.objectStoreNames.contains('tokens')) return {};
      const store = db.transaction('tokens', 'readonly').objectStore('tokens');
      const [keys, values] = await Promise.all(
        ['getAllKeys', 'getAll'].map(
          (method) =>
            new Promise<unknown[]>((resolve, reject) => {
              const request = method === 'getAllKeys' ? store.getAllKeys() : store.getAll();
              request.onsuccess = () => resolve(request.result as unknown[]);
              request.onerror = () => reject(request.error ?? new Error('reading tokens failed'));
            }),
        ),
      );
      const result: Record<string, unknown> = {};
      (keys ?? []).forEach((key, index) => (result[String(key)] = (values ?? [])[index]));
      return result;
    } finally {
      db.close();
    }
  }, null);
}

// ----- the server, asked directly -----

export interface ServerSession {
  accessToken: string;
  userId: string;
  companyId: string;
}

/** Signs in through the API (not the page) and reads the user's id and first company. */
export async function apiSignIn(serverUrl: string, email: string, password: string): Promise<ServerSession> {
  const response = await fetch(`${serverUrl}/main-service/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const pair = (await response.json()) as { access_token?: string; accessToken?: string };
  const accessToken = pair.access_token ?? pair.accessToken ?? '';
  if (!response.ok || !accessToken) throw new Error(`API sign-in of ${email} failed: ${response.status} ${JSON.stringify(pair)}`);
  const me = await apiGet<{ data: { id: string; companies: Array<{ id: string }> } }>(serverUrl, accessToken, '/user');
  const companyId = me.body.data.companies[0]?.id;
  if (!companyId) throw new Error(`${email} belongs to no company`);
  return { accessToken, userId: me.body.data.id, companyId };
}

/** A JSON POST straight to the server as `session`'s user, in English, with a fresh Idempotency-Key. */
export async function apiPost<T>(serverUrl: string, session: ServerSession, path: string, body: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${serverUrl}/main-service/api/v1${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${session.accessToken}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID(), Language: 'en' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

export async function apiGet<T>(serverUrl: string, accessToken: string, path: string): Promise<{ status: number; body: T; bytes: Buffer }> {
  const response = await fetch(`${serverUrl}/main-service/api/v1${path}`, { headers: { Authorization: `Bearer ${accessToken}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  const isJson = (response.headers.get('content-type') ?? '').includes('json');
  return { status: response.status, body: (isJson ? JSON.parse(bytes.toString('utf8')) : null) as T, bytes };
}

/** A valid project body named `name` (the server tests' own, server/features/projects/project-body.ts), with a fresh id. */
export function projectBody(name: string, projectManagerEmployeeId: string): Record<string, unknown> {
  return serverProjectBody(projectManagerEmployeeId, { id: randomUUID(), name });
}

export interface ServerProposal {
  id: string;
  authorId: string | null;
  photoSha256: string[];
}

/** The session user's proposals titled `title` on the server, with the sha-256 of each photo as served. */
export async function serverProposals(serverUrl: string, session: ServerSession, title: string): Promise<ServerProposal[]> {
  const mine = await apiGet<{ data: { items: Array<{ id: string; title: string; authorId?: string; author?: { id: string }; images: Array<{ imageId: string }> }> } }>(
    serverUrl,
    session.accessToken,
    `/companies/${session.companyId}/suggestions?scope=mine`,
  );
  if (mine.status !== 200) throw new Error(`listing proposals answered ${mine.status}`);
  const found: ServerProposal[] = [];
  for (const item of mine.body.data.items.filter((s) => s.title === title)) {
    const photoSha256: string[] = [];
    for (const image of item.images) {
      const file = await apiGet<unknown>(serverUrl, session.accessToken, `/uploads/${image.imageId}`);
      photoSha256.push(file.status === 200 ? sha256(file.bytes) : `status ${file.status}`);
    }
    found.push({ id: item.id, authorId: item.authorId ?? item.author?.id ?? null, photoSha256 });
  }
  return found;
}

/** An outbox row's place in the send schedule, as the device stored it. */
export interface OutboxSchedule {
  id: string;
  title: unknown;
  status: string;
  attempts: number;
  /** Epoch ms (the page's clock) before which the replayer does not send the row; 0 means at once. */
  nextAttemptAt: number;
  lastError: unknown;
}

/** The attempts and next-attempt times of the outbox rows (for benchmarks of the backoff, no photo bytes). */
export async function outboxSchedule(engine: Engine): Promise<{ now: number; rows: OutboxSchedule[] }> {
  return engine.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dashboard');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('indexedDB.open failed'));
    });
    try {
      if (!db.objectStoreNames.contains('outbox')) return { now: Date.now(), rows: [] };
      const rows = await new Promise<unknown[]>((resolve, reject) => {
        const request = db.transaction('outbox', 'readonly').objectStore('outbox').getAll();
        request.onsuccess = () => resolve(request.result as unknown[]);
        request.onerror = () => reject(request.error ?? new Error('reading the outbox failed'));
      });
      return {
        now: Date.now(),
        rows: (rows as Array<{ id: string; status: string; attempts?: number; nextAttemptAt?: number; lastError?: unknown; body: { title?: unknown } | null }>).map((row) => ({
          id: row.id,
          title: row.body?.title ?? null,
          status: row.status,
          attempts: row.attempts ?? 0,
          nextAttemptAt: row.nextAttemptAt ?? 0,
          lastError: row.lastError ?? null,
        })),
      };
    } finally {
      db.close();
    }
  }, null);
}
