// src/lib/http.ts and the replayer name the `TokenStore` interface of src/lib/token-store.ts, a page module
// whose other exports use window, localStorage and storage events. The worker never loads it (those imports
// are type-only and erased), but type-checking the worker with the WebWorker library still reads it: these
// declarations give that file the few DOM names it uses. TODO(#4): move `TokenStore` into a module without
// page globals and delete this file.
interface Storage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface StorageEvent extends Event {
  readonly key: string | null;
}

interface Window {
  readonly localStorage: Storage;
  addEventListener(type: 'storage', listener: (event: StorageEvent) => void): void;
}

declare const window: Window;
