// One Idempotency-Key per user submission for the online-only writes (companies, departments, employees,
// invitations, the profile): a retry after "no answer" must be the same request to the server, or it may
// create a second company, employee, department or invitation.
// Guarantees:
// - a submission is known by (method, path, body), canonical JSON exactly as the server hashes it (one
//   definition: requestIdentity in src/domain/idempotency.ts); the same submission sent again while its key
//   is kept gets the same key, so the server replays the first outcome instead of doing it twice (two
//   clicks at once get one key as well);
// - a changed body gets a new key (the server would refuse the old key with another body: 422);
// - the key is forgotten after a success (the next identical submission is a new intention) and after a
//   definitive refusal (a 4xx other than 408, 409 and 429): the server rolls a refused request back, key
//   included, so nothing of it is left to replay;
// - it is kept after no answer (status 0), a timeout, 409 (the same key still running), 429 or a 5xx, and
//   after an error that is not the server's answer (a 2xx whose body failed its struct, a full disk while
//   storing it): in all of these the server may have done it;
// - kept keys live in memory only (a reload forgets them), for at most `keepMs`, at most `maxKept` of them;
//   the body itself is not kept, only its SHA-256 (passwords pass through here).
// The import keeps its own key the same way (features/employees/import): file + mapping instead of a body.
import { requestIdentity } from '../domain/idempotency';

export interface Submission {
  method: string;
  path: string;
  /** The JSON body; undefined for none. */
  body?: unknown;
}

export interface SubmissionKeys {
  /** The Idempotency-Key for this submission: the one kept for the same submission, else a new one (kept). */
  keyFor(submission: Submission): Promise<string>;
  /** The submission with this key succeeded: its key is spent. */
  succeeded(key: string): void;
  /** The submission with this key failed with `error`: the key is kept only when the server may have done it. */
  failed(key: string, error: unknown): void;
}

export interface SubmissionKeysOptions {
  now?: () => number;
  newKey?: () => string;
  /** How long a key waits for its retry (default 24 hours). */
  keepMs?: number;
  /** How many keys are kept at most (the oldest go first). */
  maxKept?: number;
}

export const SUBMISSION_KEEP_MS = 24 * 60 * 60_000;
const MAX_KEPT = 100;

/** The status of a failed request: a number for an answer or none (0), undefined when it is not an HTTP error. */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status } = error as { status?: unknown };
  return typeof status === 'number' ? status : undefined;
}

/** Whether the server may have carried out a request that failed with `error` (then its key must be kept). */
export function mayHaveBeenApplied(error: unknown): boolean {
  const status = statusOf(error);
  if (status === undefined) return true;
  return !(status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429);
}

/** The submission as the server identifies it: method, path without query, canonical body. */
export function submissionText(submission: Submission): string {
  return requestIdentity(submission.method, submission.path, submission.body);
}

async function fingerprintOf(submission: Submission): Promise<string> {
  const text = submissionText(submission);
  const subtle = globalThis.crypto?.subtle;
  // Outside a secure context there is no SubtleCrypto; then the text itself (memory only) tells submissions apart.
  if (!subtle) return text;
  const digest = await subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export function createSubmissionKeys(options: SubmissionKeysOptions = {}): SubmissionKeys {
  const now = options.now ?? (() => Date.now());
  const newKey = options.newKey ?? (() => crypto.randomUUID());
  const keepMs = options.keepMs ?? SUBMISSION_KEEP_MS;
  const maxKept = options.maxKept ?? MAX_KEPT;
  // Insertion order is age order: the first entries are the oldest.
  const kept = new Map<string, { key: string; at: number }>();

  const forget = (key: string) => {
    for (const [fingerprint, entry] of kept) {
      if (entry.key === key) kept.delete(fingerprint);
    }
  };

  return {
    async keyFor(submission) {
      const fingerprint = await fingerprintOf(submission);
      const at = now();
      for (const [oldFingerprint, entry] of kept) {
        if (at - entry.at > keepMs) kept.delete(oldFingerprint);
      }
      const found = kept.get(fingerprint);
      if (found) return found.key;
      const key = newKey();
      kept.set(fingerprint, { key, at });
      while (kept.size > maxKept) {
        const oldest = kept.keys().next();
        if (oldest.done === true) break;
        kept.delete(oldest.value);
      }
      return key;
    },
    succeeded: forget,
    failed(key, error) {
      if (!mayHaveBeenApplied(error)) forget(key);
    },
  };
}

/** The app's keys: one set for the page (a reload forgets them, as it forgets the form). */
export const submissionKeys: SubmissionKeys = createSubmissionKeys();

/**
 * Runs one user submission under its Idempotency-Key: `send` gets the key and does the whole write (the
 * request and storing its answer); the key is spent when `send` resolves and kept or dropped by the failure.
 */
export async function submitOnce<T>(submission: Submission, send: (key: string) => Promise<T>, keys: SubmissionKeys = submissionKeys): Promise<T> {
  const key = await keys.keyFor(submission);
  let result: T;
  try {
    result = await send(key);
  } catch (error) {
    keys.failed(key, error);
    throw error;
  }
  keys.succeeded(key);
  return result;
}

/** The request option carrying `key`. */
export function idempotencyHeaders(key: string): { headers: Record<string, string> } {
  return { headers: { 'Idempotency-Key': key } };
}
