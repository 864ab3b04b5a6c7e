// The offline machinery of the signed-in page (DESIGN.md, "Offline-first data flow"): one replayer (over the
// page's HTTP client, the one transport of src/lib/http.ts), its drain triggers, the pull scheduler for the user's companies
// (`CurrentUser.companies`) and connectivity, started for ONE user and stopped on sign-out.
// Guarantees:
// - the replayer and the pulls only ever act for the user they were started with (the owner id is fixed at
//   start and cleared at stop, so a second user signing in on this device neither sees nor sends the first
//   user's outbox); starting for another user stops the first;
// - starting again for the same user keeps everything running and only takes the user's company list as it
//   is now (after creating or joining a company, `GET /user` is fetched again): a company that joined the
//   list is pulled at once and from then on; one that left it is pulled no more and its mirror is dropped
//   (`dropCompanyMirror`: the rows with unsent changes and the outbox stay);
// - while rows are due but unsent and the network is dead (the last drain stopped 'offline', or the probe
//   says offline), the probe runs in its urgent mode (every few seconds); connectivity coming back (the
//   probe answering after it did not, and every 'online' answer of the urgent mode) makes the rows that met
//   the dead network due at once and drains; the pulls follow the same return;
// - after a drain of this page that left rows waiting, Background Sync is registered again, so a tab closed
//   now still gets its rows sent by the worker; after a drain that sent or parked rows, the pulls run, so
//   the mirror catches up with what the server made of them;
// - after a local write, `afterEnqueue()` drains at once and registers the service worker's Background Sync
//   tag where the browser has it.
// It also remembers the last session (the user, enums and units) so a page opened without a network can
// still show the screens that read the mirror; sign-out forgets it.
import { CurrentUser, type EnumsData, Unit } from '../domain/user';
import { http } from './api';
import { getConnectivity, type ProbingConnectivity } from './connectivity';
import { getAppDatabase, type AppDatabase, type OutboxRow } from './db/database';
import { StoredEnumsRow, checkRows } from './db/rows';
import { countUnsent, hasWaitingRows } from './outbox/outbox';
import { createReplayer, type ExclusiveLocks, type SuccessHandlers } from './outbox/replayer';
import { shouldRegisterSync, startOutboxTriggers, type OutboxTriggers } from './outbox/triggers';
import { dropCompanyMirror, pullCompany } from './sync/pull';
import { startPullScheduler, type PullScheduler } from './sync/scheduler';
import { tokenStore } from './token-store';
import { followWorkerTokens, requestOutboxSync } from '../../sw/page-bridge';

export interface OfflineOptions {
  user: Pick<CurrentUser, 'id' | 'companies'>;
  /** Success handlers per outbox row kind (features give theirs: the app composes them). */
  handlers: SuccessHandlers;
  /** Rows the server's push takes (the registry's `isPushableOutboxRow`): sent in batches; omitted: none. */
  isPushable?: (row: OutboxRow) => boolean;
  db?: AppDatabase;
  connectivity?: ProbingConnectivity;
  /** Registers the worker's Background Sync (default `requestOutboxSync`); tests give their own. */
  requestSync?: () => Promise<boolean>;
}

interface Running {
  userId: string;
  db: AppDatabase;
  /** The companies the pulls cover; `ids` is replaced when the user's company list changes. */
  companies: { ids: readonly string[] };
  /** Cleared at stop, so a drain still running finds no user and sends nothing more. */
  active: { value: boolean };
  triggers: OutboxTriggers;
  pulls: PullScheduler;
  stopReconnect: () => void;
  stopFollowingWorker: () => void;
  requestSync: () => Promise<boolean>;
}

let running: Running | null = null;

function browserLocks(): ExclusiveLocks | null {
  if (typeof navigator === 'undefined' || !('locks' in navigator)) return null;
  const locks = navigator.locks;
  return {
    request: (name, options, callback) => locks.request(name, options, (lock) => callback(lock)),
  };
}

export interface ReconnectHandlers {
  /** The outbox's reconnect (rows that met a dead network are due at once, then a drain). */
  outbox: () => void;
  /** Everything else that follows a return of the network (the pulls). */
  cameBack: () => void;
  /** The probe answered 'offline'. */
  offline?: () => void;
}

/**
 * Follows the probe's answers: an 'online' answer after any other state is a return (both handlers); in the
 * urgent mode every 'online' answer is one for the outbox, whose last drain met a dead network while the
 * probe may never have seen it go (a hanging request, a drain of another tab). Returns the unsubscribe.
 */
export function followConnectivity(connectivity: ProbingConnectivity, handlers: ReconnectHandlers): () => void {
  let previous = connectivity.get();
  return connectivity.onProbe((state) => {
    const cameBack = state === 'online' && previous !== 'online';
    previous = state;
    if (cameBack) {
      handlers.cameBack();
      handlers.outbox();
    } else if (state === 'online' && connectivity.isUrgent()) {
      handlers.outbox();
    } else if (state === 'offline') {
      handlers.offline?.();
    }
  });
}

function companyIdsOf(user: OfflineOptions['user']): string[] {
  return (user.companies ?? []).map((company) => company.id);
}

/**
 * Follows a new company list of the running user: the pulls cover it from now on; a new company is pulled at
 * once; a company that left the list has its mirror dropped (its unsent rows stay).
 */
function followCompanies(current: Running, companyIds: readonly string[]): void {
  const before = current.companies.ids;
  if (before.length === companyIds.length && before.every((id, index) => companyIds[index] === id)) return;
  current.companies.ids = companyIds;
  for (const gone of before.filter((id) => !companyIds.includes(id))) {
    dropCompanyMirror(current.db, current.userId, gone).catch((error: unknown) => console.error(`Could not drop the mirror of company ${gone}`, error));
  }
  if (companyIds.some((id) => !before.includes(id))) void current.pulls.pullAll();
}

/**
 * Starts the replayer, its triggers and the pulls for `user` (stops those of another user first). Called
 * again for the same user, it only follows the user's company list.
 */
export function startOffline(options: OfflineOptions): void {
  const { user } = options;
  if (running?.userId === user.id) {
    followCompanies(running, companyIdsOf(user));
    return;
  }
  stopOffline();
  const db = options.db ?? getAppDatabase();
  const connectivity = options.connectivity ?? getConnectivity();
  const userId = user.id;

  const active = { value: true };
  const replayer = createReplayer({
    db,
    // The app's one transport: the same token store, locale, deadlines and shared refresh as every call.
    http,
    getOwnerUserId: () => (active.value ? userId : null),
    clock: { now: () => Date.now() },
    random: Math.random,
    locks: browserLocks(),
    handlers: options.handlers,
    ...(options.isPushable ? { isPushable: options.isPushable } : {}),
  });

  const companies: Running['companies'] = { ids: companyIdsOf(user) };
  const pullReconnects = new Set<() => void>();
  const pulls = startPullScheduler({
    getCompanyIds: () => companies.ids,
    pull: (companyId) => pullCompany({ db, http, ownerUserId: userId, companyId, isActive: () => active.value }),
    events: window,
    onReconnect: (listener) => {
      pullReconnects.add(listener);
      return () => pullReconnects.delete(listener);
    },
  });
  const requestSync = options.requestSync ?? requestOutboxSync;
  const triggers = startOutboxTriggers({
    replayer,
    now: () => Date.now(),
    events: window,
    visibility: document,
    setUrgentProbe: (urgent) => connectivity.setUrgent(urgent),
    afterDrain: (result) => {
      if (!active.value) return;
      if (shouldRegisterSync(result)) {
        requestSync().catch((error: unknown) => console.warn('Could not register Background Sync', error));
      }
      if (result.sent > 0 || result.parked > 0) void pulls.pullAll();
    },
  });
  const stopReconnect = followConnectivity(connectivity, {
    outbox: () => void triggers.reconnect(),
    cameBack: () => {
      for (const listener of pullReconnects) listener();
    },
    // Rows due but unsent while the probe says offline (a drain may still be hanging on the dead network):
    // probe often, so their return is seen within seconds. The next drain that gets through turns it off.
    offline: () => {
      if (connectivity.isUrgent()) return;
      hasWaitingRows(db, userId, Date.now())
        .then((waiting) => {
          if (waiting && active.value) connectivity.setUrgent(true);
        })
        .catch((error: unknown) => console.error('Could not read the outbox', error));
    },
  });
  // Tokens the service worker rotated while no page was open are adopted before the first send.
  const stopFollowingWorker = followWorkerTokens(tokenStore, (error) => console.error('Could not bring the token mirror in step', error));
  running = { userId, db, companies, active, triggers, pulls, stopReconnect, stopFollowingWorker, requestSync };
}

/** Stops everything started by `startOffline` (sign-out). Unsent rows stay on the device for that user. */
export function stopOffline(): void {
  const current = running;
  if (!current) return;
  running = null;
  current.active.value = false;
  current.triggers.stop();
  current.pulls.stop();
  current.stopReconnect();
  current.stopFollowingWorker();
}

/** The user the machinery runs for, or null. */
export function offlineUserId(): string | null {
  return running?.userId ?? null;
}

/** How many of the signed-in user's writes are still unsent (0 when nothing runs). */
export async function countUnsentNow(db: AppDatabase = getAppDatabase()): Promise<number> {
  const userId = offlineUserId();
  return userId ? countUnsent(db, userId) : 0;
}

/** After a local write: asks the service worker for a Background Sync and drains now. */
export function afterEnqueue(): void {
  // Where there is no Background Sync it answers false: the page's own triggers drain the outbox.
  (running?.requestSync ?? requestOutboxSync)().catch((error: unknown) => console.warn('Could not register Background Sync', error));
  void running?.triggers.drainOutbox();
}

/**
 * Pulls every company of the running user now (after the user discarded an unsent change, say: the pull
 * fetches again what it skipped while that change was waiting).
 */
export function pullNow(): void {
  void running?.pulls.pullAll();
}

/** Retries the sending now (the Unsent screen's "retry"). */
export function drainNow(): void {
  void running?.triggers.drainOutbox();
}

/* ---------------------------------------------------------------------------------------------- */
/* The last session, for a cold start without a network                                            */
/* ---------------------------------------------------------------------------------------------- */

/** localStorage key of the last signed-in user as `GET /user` answered (the tokens live there too). */
export const LAST_USER_KEY = 'offlineLastUser';

export interface RememberedSession {
  user: CurrentUser;
  enums: EnumsData;
  units: Unit[];
}

/**
 * Keeps what the session rules loaded (the user; enums and units in the device database under that user),
 * so a page opened without a network can still reach the screens that read the mirror.
 */
export async function rememberSession(session: RememberedSession, db: AppDatabase = getAppDatabase(), storage: Storage = localStorage): Promise<void> {
  const ownerUserId = session.user.id;
  await db.transaction('rw', [db.enums, db.units], async () => {
    await db.enums.put({ ownerUserId, data: session.enums, updatedAt: Date.now() });
    await db.units.where('ownerUserId').equals(ownerUserId).delete();
    await db.units.bulkPut(session.units.map((unit) => ({ ...unit, ownerUserId })));
  });
  storage.setItem(LAST_USER_KEY, JSON.stringify(session.user));
}

/** The remembered session, checked with its structs; null when there is none or it does not check out. */
export async function recallSession(db: AppDatabase = getAppDatabase(), storage: Storage = localStorage): Promise<RememberedSession | null> {
  let user: unknown;
  try {
    user = JSON.parse(storage.getItem(LAST_USER_KEY) ?? 'null');
  } catch (error) {
    console.warn('The remembered user is not JSON', error);
    return null;
  }
  if (!CurrentUser.is(user)) return null;
  const enumsRow = checkRows(StoredEnumsRow, [await db.enums.get(user.id)].filter(Boolean), 'enums').rows[0];
  if (!enumsRow) return null;
  const units = checkRows(Unit, await db.units.where('ownerUserId').equals(user.id).toArray(), 'units').rows.map(({ id, title, type }) => ({ id, title, type }));
  return { user, enums: enumsRow.data, units };
}

/** Forgets the remembered user (sign-out); the mirror stays, tagged with its owner. */
export function forgetSession(storage: Storage = localStorage): void {
  storage.removeItem(LAST_USER_KEY);
}
