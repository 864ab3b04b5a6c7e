// Issue 4, "Tests that must exist" 10: random interleavings (fast-check) of submissions with photos, network
// faults (answers lost after commit, failures before sending, 5xx, hangs until the timeout, retransmits),
// reloads (the Dexie database closed and opened again), pages killed mid-replay, expired access tokens and
// reconnections. However they interleave, once the network is back and the outbox has drained, the client and
// the server agree: exactly one server proposal per submission, with its photos' bytes once, and nothing left
// on the device but the server's rows. Run twice: one request per row, and with the rows that may go
// together sent in batches through the push (POST /sync/push), where a fault on 'proposal' hits the batch.
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countUnsent } from '../../src/lib/outbox/outbox';
import type { Replayer, ReplayerOptions } from '../../src/lib/outbox/replayer';
import { isPushableOutboxRow } from '../../src/app/outbox-kinds';
import {
  AppDatabase,
  FaultyNetwork,
  deviceHasServerRow,
  drainUntilSettled,
  expiredAccessToken,
  fakeClock,
  freshDbName,
  makePng,
  replayerFor,
  serverCounts,
  serverFileCount,
  serverProposal,
  signIn,
  startServer,
  submitProposal,
  type Fault,
  type RealServer,
  type Session,
} from './harness';

let server: RealServer;
let session: Session;
let net: FaultyNetwork;
let expired: string;

beforeAll(async () => {
  server = await startServer();
  net = new FaultyNetwork();
  session = await signIn(server, net);
  expired = await expiredAccessToken(server, session.userId);
});
afterAll(() => server.close());

type Target = 'upload' | 'proposal';
type FaultKind = 'drop-answer' | 'fail-before' | 'status' | 'hang' | 'duplicate';

type Command =
  | { t: 'submit'; photos: number }
  | { t: 'fault'; target: Target; kind: FaultKind; times: number }
  | { t: 'drain' }
  | { t: 'reload' }
  | { t: 'kill' }
  | { t: 'offline' }
  | { t: 'online' }
  | { t: 'expire' }
  | { t: 'tick'; minutes: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.record({ t: fc.constant('submit' as const), photos: fc.integer({ min: 0, max: 3 }) }), weight: 4 },
  {
    arbitrary: fc.record({
      t: fc.constant('fault' as const),
      target: fc.constantFrom<Target>('upload', 'proposal'),
      kind: fc.constantFrom<FaultKind>('drop-answer', 'drop-answer', 'fail-before', 'status', 'duplicate', 'hang'),
      times: fc.integer({ min: 1, max: 2 }),
    }),
    weight: 3,
  },
  { arbitrary: fc.constant({ t: 'drain' as const }), weight: 4 },
  { arbitrary: fc.constant({ t: 'reload' as const }), weight: 1 },
  { arbitrary: fc.constant({ t: 'kill' as const }), weight: 1 },
  { arbitrary: fc.constant({ t: 'offline' as const }), weight: 1 },
  { arbitrary: fc.constant({ t: 'online' as const }), weight: 1 },
  { arbitrary: fc.constant({ t: 'expire' as const }), weight: 1 },
  { arbitrary: fc.record({ t: fc.constant('tick' as const), minutes: fc.integer({ min: 0, max: 10 }) }), weight: 1 },
);

interface Submission {
  id: string;
  photos: ArrayBuffer[];
}

let photoSeed = 1;

async function run(commands: Command[], batching: boolean): Promise<void> {
  const way: Partial<ReplayerOptions> = batching ? { isPushable: isPushableOutboxRow } : {};
  // Runs are independent scenarios of one user: as if 11 minutes passed since the previous one, so the server's
  // per-user upload rate (60 per 10 minutes) counts one run's uploads, not the whole property's. Not more: the
  // server's job removes unattached uploads a day old by this clock, and 50 runs (and their shrinking) must stay
  // well inside that day.
  server.advanceClock(11 * 60_000);
  const name = freshDbName();
  const clock = fakeClock();
  const opened: AppDatabase[] = [];
  const open = () => {
    const db = new AppDatabase(name);
    opened.push(db);
    return db;
  };
  let db = open();
  let replayer: Replayer = replayerFor(db, session, clock, { ...way, requestTimeoutMs: 100 });
  const reopen = () => {
    db.close();
    db = open();
    replayer = replayerFor(db, session, clock, { ...way, requestTimeoutMs: 100 });
  };
  const submissions: Submission[] = [];
  const faults: { target: Target; fault: Fault; left: number }[] = [];
  const filesBefore = await serverFileCount(server, session.userId);

  net.offline = false;
  net.afterAnswer = () => undefined;
  net.fault = (call) => {
    const proposal = (/\/suggestions$/.test(call.path) || call.path === '/sync/push') && call.method === 'POST';
    const target: Target | null = call.path === '/files/upload' ? 'upload' : proposal ? 'proposal' : null;
    const pending = target ? faults.find((f) => f.target === target && f.left > 0) : undefined;
    if (!pending) return undefined;
    pending.left -= 1;
    return pending.fault;
  };

  try {
    for (const c of commands) {
      switch (c.t) {
        case 'submit': {
          const photos = Array.from({ length: c.photos }, () => makePng((photoSeed += 1)));
          const { id } = await submitProposal(db, session, clock, { photos });
          submissions.push({ id, photos });
          break;
        }
        case 'fault': {
          const fault: Fault = c.kind === 'status' ? { kind: 'status', status: 503 } : { kind: c.kind };
          faults.push({ target: c.target, fault, left: c.times });
          break;
        }
        case 'drain':
          await replayer.drain();
          break;
        case 'reload':
          reopen();
          break;
        case 'kill': {
          // The page dies as the next answer arrives (maybe after the server committed it).
          const dying = db;
          net.afterAnswer = () => {
            dying.close();
          };
          await replayer.drain().catch(() => undefined);
          net.afterAnswer = () => undefined;
          reopen();
          break;
        }
        case 'offline':
          net.offline = true;
          break;
        case 'online':
          // The app sees the network return (probe, online event, focus): rows that met it dead are due.
          net.offline = false;
          await replayer.wake();
          break;
        case 'expire':
          session.tokens.access = expired;
          break;
        case 'tick':
          clock.advance(c.minutes * 60_000);
          break;
      }
    }

    // The network comes back for good and the app's timer keeps draining.
    net.offline = false;
    faults.length = 0;
    await drainUntilSettled(replayer, clock, 100);

    const ids = submissions.map((s) => s.id);
    expect([...(await serverCounts(server, ids)).values()]).toEqual(ids.map(() => 1));
    for (const s of submissions) {
      const stored = await serverProposal(server, s.id);
      expect(stored?.images.map((i) => i.bytes)).toEqual(s.photos.map((p) => new Uint8Array(p)));
      expect(await deviceHasServerRow(db, server, session.userId, s.id)).toBe(true);
    }
    // Every photo was stored on the server once, however often its upload was replayed.
    expect(await serverFileCount(server, session.userId)).toBe(filesBefore + submissions.reduce((n, s) => n + s.photos.length, 0));
    expect(await countUnsent(db, session.userId)).toBe(0);
    expect(await db.files.count()).toBe(0);
  } finally {
    net.fault = () => undefined;
    net.afterAnswer = () => undefined;
    for (const d of opened) d.close();
    await opened[0]?.delete();
  }
}

describe('random interleavings of submissions, failures, reloads and reconnections (10)', () => {
  it.each([
    ['one request per row', false],
    ['in batches through the push', true],
  ])('end with client and server agreeing and exactly one server proposal per submission (%s)', async (_way, batching) => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 14 }), (commands) => run(commands, batching)),
      { numRuns: 50 },
    );
  });
});
