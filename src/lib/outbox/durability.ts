// Durable storage: without `navigator.storage.persist()` the browser may evict IndexedDB under storage
// pressure, and with it the user's unsent work (DESIGN.md, "Offline-first data flow", point 4).
// Guarantees: nothing the user saves waits on this answer. Firefox (and any browser that asks the person)
// keeps `persist()` pending until somebody answers a permission prompt, possibly forever; so writers ask
// alongside their write and read the answer through `persistentStorageWithin`, which settles within a short
// bound: a question still open then counts as "unknown", which the UI treats like a refusal (the user is told
// that unsent work could be evicted). The question is asked once per page; a late answer is kept and read by
// the next caller (`knownPersistentStorage`).

/** The part of `navigator.storage` used here. */
export interface PersistentStorage {
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
}

/** What is known about persistence: granted, refused, or not answered (yet) within the bound. */
export type PersistenceAnswer = 'granted' | 'refused' | 'unknown';

/** How long a writer waits for the browser's answer, counted from when it asked. */
export const PERSISTENCE_ANSWER_BOUND_MS = 1500;

let granted: Promise<boolean> | null = null;
let known: boolean | null = null;

function browserStorage(): PersistentStorage | undefined {
  return typeof navigator !== 'undefined' && 'storage' in navigator ? navigator.storage : undefined;
}

async function ask(storage: PersistentStorage | undefined): Promise<boolean> {
  if (!storage?.persist) return false;
  try {
    // `persisted()` never prompts: an origin that already has it answers at once.
    if (storage.persisted && (await storage.persisted())) return true;
    return await storage.persist();
  } catch (error) {
    console.warn('Could not ask for persistent storage', error);
    return false;
  }
}

/**
 * Asks the browser to keep this origin's storage (once per page; later calls share the answer). Resolves to
 * whether storage is persistent, WHEN the browser answers, which may be never (a prompt nobody answers):
 * never await it on a path the user waits on; use `persistentStorageWithin`.
 */
export function ensurePersistentStorage(storage: PersistentStorage | undefined = browserStorage()): Promise<boolean> {
  granted ??= ask(storage).then((answer) => {
    known = answer;
    return answer;
  });
  return granted;
}

/** The browser's answer if it has come (here or for an earlier caller), else null. */
export function knownPersistentStorage(): boolean | null {
  return known;
}

/** Timers, injectable for tests. */
export interface BoundTimers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const globalTimers: BoundTimers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/** `answer` as a PersistenceAnswer, or 'unknown' once `ms` have passed without it. Never rejects. */
export function answerWithin(answer: Promise<boolean>, ms: number, timers: BoundTimers = globalTimers): Promise<PersistenceAnswer> {
  return new Promise((resolve) => {
    const timer = timers.setTimeout(() => resolve('unknown'), ms);
    answer.then(
      (isGranted) => {
        timers.clearTimeout(timer);
        resolve(isGranted ? 'granted' : 'refused');
      },
      (error: unknown) => {
        timers.clearTimeout(timer);
        console.warn('Could not learn whether storage is persistent', error);
        resolve('refused');
      },
    );
  });
}

/**
 * Asks for persistent storage (see `ensurePersistentStorage`) and settles within `ms`: 'unknown' when the
 * browser has not answered by then. The question stays open; its answer is kept for later callers.
 */
export function persistentStorageWithin(
  ms: number = PERSISTENCE_ANSWER_BOUND_MS,
  storage: PersistentStorage | undefined = browserStorage(),
  timers: BoundTimers = globalTimers,
): Promise<PersistenceAnswer> {
  return answerWithin(ensurePersistentStorage(storage), ms, timers);
}

/** For tests: forget the question and its answer. */
export function resetPersistentStorageAnswer(): void {
  granted = null;
  known = null;
}
