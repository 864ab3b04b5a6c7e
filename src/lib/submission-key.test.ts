import { describe, expect, it } from 'vitest';
import { HttpError } from './http';
import { createSubmissionKeys, mayHaveBeenApplied, submissionText, submitOnce, type SubmissionKeys } from './submission-key';

function keysWithClock(start = 0): { keys: SubmissionKeys; clock: { at: number } } {
  const clock = { at: start };
  let made = 0;
  const keys = createSubmissionKeys({ now: () => clock.at, newKey: () => `key-${(made += 1)}`, keepMs: 1_000, maxKept: 3 });
  return { keys, clock };
}

const create = { method: 'POST', path: '/api/v1/companies', body: { name: 'Acme', inn: '7707083893' } };
const noAnswer = new HttpError(0, null);

/** Sends `submission` through `submitOnce`, answering with `outcome`; resolves to the key it was sent under. */
async function send(keys: SubmissionKeys, submission: typeof create, outcome: 'ok' | Error): Promise<string> {
  let sentKey = '';
  await submitOnce(
    submission,
    (key) => {
      sentKey = key;
      return outcome === 'ok' ? Promise.resolve('done') : Promise.reject(outcome);
    },
    keys,
  ).catch((error: unknown) => {
    if (error !== outcome) throw error;
  });
  return sentKey;
}

describe('one Idempotency-Key per user submission', () => {
  it('sends the same submission again under the same key after no answer', async () => {
    const { keys } = keysWithClock();
    const first = await send(keys, create, noAnswer);
    expect(await send(keys, create, noAnswer)).toBe(first);
    expect(await send(keys, create, 'ok')).toBe(first);
  });

  it('makes a new key for the next submission after a success, even with the same body', async () => {
    const { keys } = keysWithClock();
    const first = await send(keys, create, 'ok');
    const second = await send(keys, create, 'ok');
    expect(second).not.toBe(first);
  });

  it('makes a new key when the user changed the input (the server refuses an old key with another body)', async () => {
    const { keys } = keysWithClock();
    const first = await send(keys, create, noAnswer);
    const edited = await send(keys, { ...create, body: { ...create.body, name: 'Acme Works' } }, noAnswer);
    expect(edited).not.toBe(first);
    // Back to the first text: that one may have reached the server, so it keeps its key.
    expect(await send(keys, create, noAnswer)).toBe(first);
  });

  it('tells submissions apart by method and path, not by the order of the fields', async () => {
    const { keys } = keysWithClock();
    const first = await send(keys, create, noAnswer);
    expect(await send(keys, { ...create, body: { inn: '7707083893', name: 'Acme' } }, noAnswer)).toBe(first);
    expect(await send(keys, { ...create, path: '/api/v1/companies/c1/departments' }, noAnswer)).not.toBe(first);
    expect(await send(keys, { ...create, method: 'PATCH' }, noAnswer)).not.toBe(first);
  });

  it('lets a refused submission (4xx) go out under a new key', async () => {
    const { keys } = keysWithClock();
    const first = await send(keys, create, new HttpError(400, { message: 'Validation failed', errors: { inn: 'innInvalid' } }));
    expect(await send(keys, create, noAnswer)).not.toBe(first);
  });

  it('keeps the key after a 5xx, a 409 (the same key still running), a 429 and an answer that failed its struct', async () => {
    for (const error of [new HttpError(503, null), new HttpError(409, { message: 'In progress' }), new HttpError(429, null), new Error('does not match its struct')]) {
      const { keys } = keysWithClock();
      const first = await send(keys, create, error);
      expect(await send(keys, create, 'ok')).toBe(first);
    }
  });

  it('gives two clicks at once one key', async () => {
    const { keys } = keysWithClock();
    const [a, b] = await Promise.all([keys.keyFor(create), keys.keyFor(create)]);
    expect(a).toBe(b);
  });

  it('forgets a kept key after keepMs and keeps at most maxKept', async () => {
    const { keys, clock } = keysWithClock();
    const first = await send(keys, create, noAnswer);
    clock.at = 1_001;
    expect(await send(keys, create, noAnswer)).not.toBe(first);

    const { keys: few } = keysWithClock();
    const oldest = await send(few, create, noAnswer);
    for (const name of ['b', 'c', 'd']) await send(few, { ...create, body: { ...create.body, name } }, noAnswer);
    expect(await send(few, create, noAnswer)).not.toBe(oldest);
  });

  it('identifies a submission as the server hashes it (method upper-cased, no query, null for no body)', () => {
    expect(submissionText({ method: 'post', path: '/a?x=1' })).toBe('["POST","/a",null]');
    expect(submissionText({ method: 'POST', path: '/a', body: { b: 1, a: [{ d: 1, c: 2 }] } })).toBe('["POST","/a",{"a":[{"c":2,"d":1}],"b":1}]');
  });

  it('counts only a definitive refusal as not applied', () => {
    expect(mayHaveBeenApplied(new HttpError(0, null))).toBe(true);
    expect(mayHaveBeenApplied(new HttpError(408, null))).toBe(true);
    expect(mayHaveBeenApplied(new HttpError(500, null))).toBe(true);
    expect(mayHaveBeenApplied(new Error('struct'))).toBe(true);
    expect(mayHaveBeenApplied(new HttpError(403, null))).toBe(false);
    expect(mayHaveBeenApplied(new HttpError(422, null))).toBe(false);
  });
});
