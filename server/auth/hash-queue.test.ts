import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { createHashQueue, defaultHashConcurrency, defaultHashQueueOptions, type HashPriority, type HashQueue } from './hash-queue';

/** Tasks that finish only when the test says so, recording the order they started in. */
function gate(queue: HashQueue) {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  let running = 0;
  let mostRunning = 0;
  const run = (priority: HashPriority, name: string, fail = false) =>
    queue.run(priority, async () => {
      started.push(name);
      running += 1;
      mostRunning = Math.max(mostRunning, running);
      await new Promise<void>((resolve) => releases.set(name, resolve));
      running -= 1;
      if (fail) throw new Error(`${name} failed`);
      return name;
    });
  const release = async (name: string) => {
    const done = releases.get(name);
    if (!done) throw new Error(`${name} has not started`);
    done();
    // Let the finished task's continuation start the next one.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { run, release, started, mostRunning: () => mostRunning };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the password hash queue', () => {
  it('starts a waiting sign-in before registrations that were waiting longer', async () => {
    const queue = createHashQueue({ concurrency: 1, signInReserve: 0, maxWaiting: { signIn: 8, other: 8 } });
    const g = gate(queue);
    const registrations = ['r1', 'r2', 'r3', 'r4'].map((name) => g.run('other', name));
    const signIn = g.run('signIn', 's1');
    await flush();
    expect(g.started).toEqual(['r1']);
    expect(queue.stats()).toEqual({ running: 1, waiting: { signIn: 1, other: 3 } });
    await g.release('r1');
    expect(g.started).toEqual(['r1', 's1']);
    await g.release('s1');
    expect(await signIn).toBe('s1');
    for (const name of ['r2', 'r3', 'r4']) await g.release(name);
    expect(await Promise.all(registrations)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(g.started).toEqual(['r1', 's1', 'r2', 'r3', 'r4']);
  });

  it('keeps a slot for sign-ins: one starts at once while registrations fill every other slot', async () => {
    const queue = createHashQueue({ concurrency: 2, signInReserve: 1, maxWaiting: { signIn: 8, other: 8 } });
    const g = gate(queue);
    const registrations = ['r1', 'r2', 'r3'].map((name) => g.run('other', name));
    const signIn = g.run('signIn', 's1');
    await flush();
    expect(g.started).toEqual(['r1', 'r2', 's1']);
    await g.release('s1');
    expect(await signIn).toBe('s1');
    // The freed reserved slot is not for registrations: r3 still waits for r1 or r2.
    expect(g.started).toEqual(['r1', 'r2', 's1']);
    await g.release('r1');
    expect(g.started).toEqual(['r1', 'r2', 's1', 'r3']);
    await g.release('r2');
    await g.release('r3');
    await Promise.all(registrations);
  });

  it('never runs more than its bound at once, nor more registrations than the shared slots', async () => {
    const queue = createHashQueue({ concurrency: 3, signInReserve: 1, maxWaiting: { signIn: 100, other: 100 } });
    let running = { signIn: 0, other: 0 };
    let most = { all: 0, other: 0 };
    const task = (priority: HashPriority) => async () => {
      running = { ...running, [priority]: running[priority] + 1 };
      most = { all: Math.max(most.all, running.signIn + running.other), other: Math.max(most.other, running.other) };
      // A few turns of the event loop, different for each task, so they overlap in many ways.
      for (let i = 0; i < 1 + Math.floor(Math.random() * 5); i++) await flush();
      running = { ...running, [priority]: running[priority] - 1 };
    };
    await Promise.all(Array.from({ length: 60 }, (_, i) => queue.run(i % 3 === 0 ? 'signIn' : 'other', task(i % 3 === 0 ? 'signIn' : 'other'))));
    expect(most).toEqual({ all: 4, other: 3 });
    expect(queue.stats()).toEqual({ running: 0, waiting: { signIn: 0, other: 0 } });
  });

  it('refuses with 503 serverBusy and Retry-After beyond the waiting length of the priority, and only that one', async () => {
    const queue = createHashQueue({ concurrency: 1, signInReserve: 0, maxWaiting: { signIn: 1, other: 2 } });
    const g = gate(queue);
    const admitted = [g.run('other', 'r1'), g.run('other', 'r2'), g.run('other', 'r3')];
    const busy = await refusal(g.run('other', 'r4'));
    expect(busy.status).toBe(503);
    expect(busy.code).toBe('serverBusy');
    expect(Number(busy.extras.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(busy.extras.values?.seconds).toBe(Number(busy.extras.headers?.['Retry-After']));
    // A full registration line does not fill the sign-ins' line.
    const signIn = g.run('signIn', 's1');
    expect((await refusal(g.run('signIn', 's2'))).code).toBe('serverBusy');
    for (const name of ['r1', 's1', 'r2', 'r3']) await g.release(name);
    expect(await Promise.all([...admitted, signIn])).toEqual(['r1', 'r2', 'r3', 's1']);
    expect(g.started).toEqual(['r1', 's1', 'r2', 'r3']);
  });

  it('frees the slot of a task that fails', async () => {
    const queue = createHashQueue({ concurrency: 1, signInReserve: 0, maxWaiting: { signIn: 4, other: 4 } });
    const g = gate(queue);
    const failing = g.run('other', 'bad', true).then(
      () => 'resolved',
      (error: unknown) => (error instanceof Error ? error.message : 'rejected'),
    );
    const next = g.run('other', 'next');
    await flush();
    await g.release('bad');
    expect(await failing).toBe('bad failed');
    await g.release('next');
    expect(await next).toBe('next');
    expect(queue.stats().running).toBe(0);
  });

  it('by default leaves a core to the event loop and a thread to file work, with one slot kept for sign-ins', () => {
    const options = defaultHashQueueOptions();
    expect(options.concurrency).toBe(defaultHashConcurrency());
    expect(options.concurrency).toBeGreaterThanOrEqual(1);
    expect(options.concurrency).toBeLessThanOrEqual(3);
    expect(options.signInReserve).toBe(1);
  });
});
