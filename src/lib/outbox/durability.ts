// Durable storage: without `navigator.storage.persist()` the browser may evict IndexedDB under storage
// pressure, and with it the user's unsent work. Asked once before the first offline write; the answer is
// returned so the UI can warn when it was refused (DESIGN.md, "Offline-first data flow", point 4).

/** The part of `navigator.storage` used here. */
export interface PersistentStorage {
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
}

let granted: Promise<boolean> | null = null;

function browserStorage(): PersistentStorage | undefined {
  return typeof navigator !== 'undefined' && 'storage' in navigator ? navigator.storage : undefined;
}

async function ask(storage: PersistentStorage | undefined): Promise<boolean> {
  if (!storage?.persist) return false;
  try {
    if (storage.persisted && (await storage.persisted())) return true;
    return await storage.persist();
  } catch (error) {
    console.warn('Could not ask for persistent storage', error);
    return false;
  }
}

/**
 * Asks the browser to keep this origin's storage (once per page; later calls share the answer). Resolves to
 * whether storage is persistent; `false` means unsent work could be evicted and the user should be told.
 */
export function ensurePersistentStorage(storage: PersistentStorage | undefined = browserStorage()): Promise<boolean> {
  granted ??= ask(storage);
  return granted;
}

/** For tests: forget the remembered answer. */
export function resetPersistentStorageAnswer(): void {
  granted = null;
}
