// What went wrong with pulling, for the user to see (a quota error used to reach only the console).
// Guarantees: a failed pull of a company is kept here until a later pull of that company succeeds (or the
// pulls stop); running out of device storage is told apart from other failures ('quota', recognised with the
// outbox's own `isQuotaError`); no answer at all (offline, a hanging network) is not a problem of its own: the
// connectivity indicator shows that, and the next pull after the network returns settles it. Subscribers hear
// every change; `getSyncProblem` answers the same object until something changes (for useSyncExternalStore).
import { HttpError } from '../http';
import { isQuotaError } from '../outbox/outbox';

export type SyncProblemKind = 'quota' | 'failed';

export interface SyncProblem {
  kind: SyncProblemKind;
  /** The company whose pull failed (the first one, when several did). */
  companyId: string;
  /** Epoch ms of the failure. */
  at: number;
}

const byCompany = new Map<string, SyncProblem>();
const listeners = new Set<(problem: SyncProblem | null) => void>();
let current: SyncProblem | null = null;

/** The kind of problem a pull failure is, or null when it is only a missing answer (offline). */
export function syncProblemKindOf(error: unknown): SyncProblemKind | null {
  if (isQuotaError(error)) return 'quota';
  if (error instanceof HttpError && error.status === 0) return null;
  return 'failed';
}

function publish(): void {
  const all = [...byCompany.values()];
  // Storage running out is the one the user can act on; otherwise the oldest failure still standing.
  const next = all.find((problem) => problem.kind === 'quota') ?? all[0] ?? null;
  if (next === current) return;
  current = next;
  for (const listener of [...listeners]) listener(current);
}

/** Records that the pull of `companyId` failed with `error`; answers the problem kept (null for offline). */
export function reportSyncProblem(companyId: string, error: unknown, now = Date.now()): SyncProblem | null {
  const kind = syncProblemKindOf(error);
  if (kind === null) return null;
  const known = byCompany.get(companyId);
  if (known?.kind === kind) return known;
  const problem: SyncProblem = { kind, companyId, at: now };
  byCompany.set(companyId, problem);
  publish();
  return problem;
}

/** Forgets the problem of `companyId` after a pull of it succeeded; without an argument, every problem. */
export function clearSyncProblem(companyId?: string): void {
  if (companyId === undefined) byCompany.clear();
  else if (!byCompany.delete(companyId)) return;
  publish();
}

/** The problem to show now, or null. */
export function getSyncProblem(): SyncProblem | null {
  return current;
}

/** Calls `listener` with the problem to show whenever it changes; returns the unsubscribe. */
export function subscribeSyncProblems(listener: (problem: SyncProblem | null) => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
