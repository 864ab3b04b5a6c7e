import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { pruneRateEvents, takeRate, type RateRule } from './rate-limit';
import { createTestDatabase, type TestDatabase } from './test-support';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.close());

const rule: RateRule = { bucket: 'test.bucket', limit: 3, windowSeconds: 60 };
const start = new Date('2026-01-01T10:00:00Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof AppError)) throw new Error('expected a refusal');
  return error;
}

describe('takeRate', () => {
  it('allows the limit within the window and refuses the next with the wait until a slot frees', async () => {
    for (const s of [0, 10, 20]) await takeRate(t.db, rule, 'a', at(s));
    const refused = await refusal(takeRate(t.db, rule, 'a', at(30)));
    expect(refused.status).toBe(429);
    expect(refused.code).toBe('tooManyRequests');
    expect(refused.extras.headers?.['Retry-After']).toBe('30');
    await takeRate(t.db, rule, 'a', at(61));
  });

  it('counts each key on its own and does not count refused events', async () => {
    for (const s of [0, 1, 2]) await takeRate(t.db, rule, 'b', at(s));
    for (const s of [3, 4, 5, 6]) await refusal(takeRate(t.db, rule, 'b', at(s)));
    await takeRate(t.db, rule, 'c', at(3));
    // Refused attempts did not push the window: the first slot frees 60 s after the first event.
    await takeRate(t.db, rule, 'b', at(60.5));
  });

  it('lets concurrent events of one key through only up to the limit', async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => takeRate(t.db, { ...rule, bucket: 'test.concurrent' }, 'k', at(0))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
  });

  it('applies several rules at once and names the refusing rule', async () => {
    const short: RateRule = { bucket: 'test.short', limit: 1, windowSeconds: 10, code: 'tooManyAttempts' };
    const long: RateRule = { bucket: 'test.long', limit: 2, windowSeconds: 3600 };
    await takeRate(t.db, [short, long], 'd', at(0));
    expect((await refusal(takeRate(t.db, [short, long], 'd', at(5)))).code).toBe('tooManyAttempts');
    await takeRate(t.db, [short, long], 'd', at(11));
    const refused = await refusal(takeRate(t.db, [short, long], 'd', at(30)));
    expect(refused.code).toBe('tooManyRequests');
    expect(refused.extras.values?.minutes).toBe(60);
  });

  it('prunes events older than the longest window', async () => {
    await takeRate(t.db, { ...rule, bucket: 'test.prune' }, 'e', at(-7200));
    expect(await pruneRateEvents(t.db, at(0), 3600)).toBeGreaterThanOrEqual(1);
    const left = await t.db.query("SELECT 1 FROM rate_events WHERE bucket = 'test.prune'");
    expect(left).toHaveLength(0);
  });
});
