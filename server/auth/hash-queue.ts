// One queue for every password hash of the process (hashing, verifying, and the throw-away verification of an
// unknown e-mail). What it guarantees:
// - at most `concurrency` hashes run at once, plus `signInReserve` more that only sign-ins may take. scrypt at
//   log2 N = 17 (r = 8) holds 128 MiB while it runs, so this bound is what keeps the server's memory flat under a
//   registration storm: (concurrency + signInReserve) x 128 MiB at worst, however many requests arrive.
//   Unbounded, 16 parallel registrations ran 4 hashes at a time (Node's thread pool) and RSS went from 425 to
//   950 MiB; the thread pool is also what file reads and DNS use, so the default leaves one of its threads free;
// - sign-ins go first: a sign-in waiting is started before any waiting registration, and the reserved slot means
//   it does not even wait for a running registration's hash to finish. Registrations can only slow sign-ins by
//   sharing the processor, never by holding the queue;
// - the waiting lines are bounded, one bound per priority (so a flood of registrations can never fill the line
//   sign-ins wait in). Beyond it the request is refused at once with 503 `serverBusy` and a Retry-After
//   estimated from the recent hash durations, instead of waiting longer than any client would.
//
// Tasks run in order of arrival within a priority. A task that fails frees its slot like one that succeeds.

import { availableParallelism } from 'node:os';
import { AppError } from '../errors';

/** `signIn`: a password check someone is waiting on to get in; `other`: hashing a new password. */
export type HashPriority = 'signIn' | 'other';

export interface HashQueueOptions {
  /** Hashes of any priority running at once. */
  concurrency: number;
  /** Further slots only sign-ins may take, so a sign-in never waits for a registration's hash to end. */
  signInReserve: number;
  /** How many tasks of each priority may wait; the next one is refused with 503. */
  maxWaiting: Record<HashPriority, number>;
}

export interface HashQueueStats {
  running: number;
  waiting: Record<HashPriority, number>;
}

export interface HashQueue {
  /** Runs `task` when a slot of its priority is free; throws AppError 503 `serverBusy` when the line is full. */
  run<T>(priority: HashPriority, task: () => Promise<T>): Promise<T>;
  stats(): HashQueueStats;
}

/**
 * One core is left to the event loop (the embedded database runs on it too) and one thread of libuv's pool
 * (4 unless UV_THREADPOOL_SIZE says otherwise) to file and DNS work; scrypt runs on that pool.
 */
export function defaultHashConcurrency(): number {
  const threadPool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(availableParallelism() - 1, threadPool - 1));
}

export function defaultHashQueueOptions(): HashQueueOptions {
  return {
    concurrency: defaultHashConcurrency(),
    signInReserve: 1,
    // At about 0.5 s a hash on one core, 32 waiting sign-ins is a wait of some 16 s: a morning rush of a large
    // office still gets in, later ones are told to retry. Registrations are rarer and can be retried.
    maxWaiting: { signIn: 32, other: 16 },
  };
}

/** Until a hash has been measured, the Retry-After estimate assumes this long (scrypt at log2 N = 17). */
const FIRST_ESTIMATE_MS = 500;

interface Waiting {
  start(): void;
}

export function createHashQueue(options: HashQueueOptions = defaultHashQueueOptions()): HashQueue {
  const { concurrency, signInReserve, maxWaiting } = options;
  if (concurrency < 1 || signInReserve < 0) throw new Error('createHashQueue: concurrency must be >= 1 and signInReserve >= 0');
  const lines: Record<HashPriority, Waiting[]> = { signIn: [], other: [] };
  let running = 0;
  let averageMs = FIRST_ESTIMATE_MS;

  const mayStart = (priority: HashPriority) => running < concurrency + (priority === 'signIn' ? signInReserve : 0);

  function startNext(): void {
    for (;;) {
      const next = lines.signIn.length > 0 && mayStart('signIn') ? lines.signIn.shift() : mayStart('other') ? lines.other.shift() : undefined;
      if (!next) return;
      next.start();
    }
  }

  function busy(): AppError {
    const ahead = running + lines.signIn.length + lines.other.length;
    const seconds = Math.min(60, Math.max(1, Math.ceil(((ahead / concurrency) * averageMs) / 1000)));
    return new AppError('serverBusy', 503, { values: { seconds }, headers: { 'Retry-After': String(seconds) } });
  }

  return {
    run<T>(priority: HashPriority, task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          running += 1;
          const began = performance.now();
          const settle = async () => {
            try {
              return await task();
            } finally {
              running -= 1;
              // A moving average over roughly the last ten hashes: recent enough to follow the machine's load.
              averageMs = 0.9 * averageMs + 0.1 * (performance.now() - began);
              startNext();
            }
          };
          // The caller's promise takes the task's outcome, value or error.
          resolve(settle());
        };
        // Waiting sign-ins come first even for a slot a registration could take.
        const line = lines[priority];
        if (mayStart(priority) && (priority === 'signIn' || lines.signIn.length === 0) && line.length === 0) {
          start();
          return;
        }
        if (line.length >= maxWaiting[priority]) {
          reject(busy());
          return;
        }
        line.push({ start });
      });
    },
    stats: () => ({ running, waiting: { signIn: lines.signIn.length, other: lines.other.length } }),
  };
}
