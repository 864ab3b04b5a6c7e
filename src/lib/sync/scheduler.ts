// When to pull: on start, on reconnect, on focus and on a timer, for each company the user belongs to
// (`CurrentUser.companies`). Guarantees: one pull run at a time per scheduler (a trigger during a run asks
// for one more run after it, never a parallel one); a failing company does not stop the others; failures
// are reported to `onError`, never swallowed: by default to the console and to the problems store
// (problems.ts), which a later successful pull of that company clears, so the user sees a full disk or a
// pull that keeps failing.
import { clearSyncProblem, reportSyncProblem } from './problems';

export const PULL_INTERVAL_MS = 5 * 60_000;

export interface PullSchedulerOptions {
  /** The companies to pull (ids from `CurrentUser.companies`). */
  getCompanyIds: () => readonly string[];
  pull: (companyId: string) => Promise<unknown>;
  /** Where `online` and `focus` arrive (window). */
  events?: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  /** Reconnect by the health probe: called with a listener, returns the unsubscribe. */
  onReconnect?: (listener: () => void) => () => void;
  intervalMs?: number;
  setInterval?: (callback: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
  onError?: (companyId: string, error: unknown) => void;
  /** After a pull of the company succeeded (default: clears its problem). */
  onSuccess?: (companyId: string) => void;
}

/** The default `onError`: the console for developers, the problems store for the user. */
export function reportPullFailure(companyId: string, error: unknown): void {
  console.error(`Pull of company ${companyId} failed`, error);
  reportSyncProblem(companyId, error);
}

export interface PullScheduler {
  /** Pulls every company now (joins a run in progress and adds one more after it). */
  pullAll(): Promise<void>;
  stop(): void;
}

export function startPullScheduler(options: PullSchedulerOptions): PullScheduler {
  let running: Promise<void> | null = null;
  let again = false;
  const onError = options.onError ?? reportPullFailure;
  const onSuccess = options.onSuccess ?? clearSyncProblem;

  async function runAll(): Promise<void> {
    do {
      again = false;
      for (const companyId of options.getCompanyIds()) {
        let failure: { error: unknown } | null = null;
        try {
          await options.pull(companyId);
        } catch (error) {
          failure = { error };
        }
        // Outside the try: a throwing listener must not be reported as a failed pull.
        if (failure) onError(companyId, failure.error);
        else onSuccess(companyId);
      }
    } while (again);
  }

  function pullAll(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = runAll().finally(() => {
      running = null;
    });
    return running;
  }

  const trigger = () => {
    void pullAll();
  };
  options.events?.addEventListener('online', trigger);
  options.events?.addEventListener('focus', trigger);
  const unsubscribe = options.onReconnect?.(trigger);
  const timer = (options.setInterval ?? ((cb, ms) => setInterval(cb, ms)))(trigger, options.intervalMs ?? PULL_INTERVAL_MS);
  trigger();

  return {
    pullAll,
    stop() {
      options.events?.removeEventListener('online', trigger);
      options.events?.removeEventListener('focus', trigger);
      unsubscribe?.();
      (options.clearInterval ?? ((handle) => clearInterval(handle as ReturnType<typeof setInterval>)))(timer);
      // Signed out: the next person on this device must not see the last one's pull problems.
      if (!options.onError) clearSyncProblem();
    },
  };
}
