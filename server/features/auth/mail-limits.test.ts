// Mail flooding and the known/unknown address (issue 10, items 5 and 6): every call that mails is limited per
// recipient and per caller, and answers, counts and works alike whether or not the address has an account.
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../clock';
import { MAIL_CALLER_RULES, MAIL_RECIPIENT_RULES } from '../../mail/limits';
import { api, clientAddress, createTestApp, createTestDatabase, json, mailsTo, registrationInput, signUp, uniqueEmail, type TestApp, type TestDatabase } from '../../test-support';
import { AUTH_MAIL_JOBS } from './service';

let database: TestDatabase;
let t: TestApp;
const clock = createManualClock();

beforeAll(async () => {
  database = await createTestDatabase();
  t = await createTestApp({}, database, { clock });
});
afterAll(async () => {
  await t.close();
  await database.close();
});

const post = (path: string, payload: Record<string, unknown>, remoteAddress = clientAddress()) =>
  t.app.inject({ method: 'POST', url: api(path), remoteAddress, payload, headers: { Language: 'en' } });

/** What a caller can observe of an answer. */
const answerOf = (response: LightMyRequestResponse) => ({ status: response.statusCode, body: response.body, retryAfter: response.headers['retry-after'] });

const jobsFor = async (kind: string, email: string) =>
  (await t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = $1 AND payload->>'email' = $2`, [kind, email]))?.n ?? 0;

/**
 * A verified account, and a look-alike address nobody has. The clock then moves past the shortest window, so
 * the account's confirmation mail does not weigh on the comparison.
 */
async function knownAndUnknown(): Promise<{ known: string; unknown: string }> {
  const { email } = await signUp(t);
  clock.advance(15 * 60 * 1000 + 1000);
  return { known: email, unknown: uniqueEmail() };
}

describe('the same work for a known and an unknown address', () => {
  it('recovery: identical answers, exactly one job each; only the known address gets a mail once the job ran', async () => {
    const { known, unknown } = await knownAndUnknown();
    const forKnown = await post('/auth/recovery-password', { email: known });
    const forUnknown = await post('/auth/recovery-password', { email: unknown });
    expect(forKnown.statusCode).toBe(200);
    expect(answerOf(forUnknown)).toEqual(answerOf(forKnown));
    // The request only enqueued the job: no mail exists yet for either.
    expect(await t.db.one('SELECT count(*)::int AS n FROM mail_outbox WHERE kind = $1 AND lower(to_address) = lower($2)', ['recovery', known])).toEqual({ n: 0 });
    expect(await jobsFor(AUTH_MAIL_JOBS.recovery, known)).toBe(1);
    expect(await jobsFor(AUTH_MAIL_JOBS.recovery, unknown)).toBe(1);

    await t.ctx.jobs.runDue();
    const mails = await mailsTo(t.db, known);
    expect(mails.map((m) => m.kind)).toEqual(['verify', 'recovery']);
    expect(t.printed).toContain(`[mail] to ${known}: ${mails[1]?.subject} — ${mails[1]?.link}`);
    expect(await mailsTo(t.db, unknown)).toEqual([]);
    expect(t.printed.filter((line) => line.includes(unknown))).toEqual([]);
  });

  it('resend-verification: identical answers, one job each; only an unverified account gets a new link', async () => {
    const unverified = registrationInput();
    await post('/auth/register', unverified);
    const { known: verified, unknown } = await knownAndUnknown();
    const answers = [];
    for (const email of [String(unverified.email), verified, unknown]) {
      answers.push(answerOf(await post('/auth/resend-verification', { email })));
      expect(await jobsFor(AUTH_MAIL_JOBS.resendVerification, email)).toBe(1);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    await t.ctx.jobs.runDue();
    expect((await mailsTo(t.db, String(unverified.email))).map((m) => m.kind)).toEqual(['verify', 'verify']);
    expect((await mailsTo(t.db, verified)).map((m) => m.kind)).toEqual(['verify']);
    expect(await mailsTo(t.db, unknown)).toEqual([]);
  });

  it('register: a known address answers like a new one, with one job each, and is told by mail instead', async () => {
    const { known } = await knownAndUnknown();
    const fresh = uniqueEmail();
    const before = await jobsFor(AUTH_MAIL_JOBS.registered, known);
    const forKnown = await post('/auth/register', registrationInput({ email: known }));
    const forFresh = await post('/auth/register', registrationInput({ email: fresh }));
    expect(forKnown.statusCode).toBe(200);
    expect(answerOf(forFresh)).toEqual(answerOf(forKnown));
    expect((await jobsFor(AUTH_MAIL_JOBS.registered, known)) - before).toBe(1);
    expect(await jobsFor(AUTH_MAIL_JOBS.registered, fresh)).toBe(1);
    expect((await mailsTo(t.db, known)).map((m) => m.kind)).toEqual(['verify', 'existing']);
    expect((await mailsTo(t.db, fresh)).map((m) => m.kind)).toEqual(['verify']);
  });
});

describe('limits on mail-sending calls', () => {
  const [perQuarter, perHour] = MAIL_RECIPIENT_RULES;
  const [perCaller] = MAIL_CALLER_RULES;

  it('per recipient: the same refusal for a known and an unknown address, lifted when the window passes', async () => {
    const { known, unknown } = await knownAndUnknown();
    const limit = perQuarter?.limit ?? 0;
    const trace = async (email: string) => {
      const answers = [];
      for (let i = 0; i <= limit; i++) answers.push(answerOf(await post('/auth/recovery-password', { email })));
      return answers;
    };
    const forKnown = await trace(known);
    const forUnknown = await trace(unknown);
    expect(forKnown.map((a) => a.status)).toEqual([...Array<number>(limit).fill(200), 429]);
    expect(forUnknown).toEqual(forKnown);
    expect(JSON.parse(forKnown[limit]?.body ?? '{}')).toEqual({ message: 'Too many messages to this address. Try again in 15 minutes.' });
    expect(forKnown[limit]?.retryAfter).toBe(String(15 * 60));
    // Refused calls enqueue nothing.
    expect(await jobsFor(AUTH_MAIL_JOBS.recovery, known)).toBe(limit);
    expect(await jobsFor(AUTH_MAIL_JOBS.recovery, unknown)).toBe(limit);

    await t.ctx.jobs.runDue();
    expect((await mailsTo(t.db, known)).filter((m) => m.kind === 'recovery')).toHaveLength(limit);

    clock.advance((perQuarter?.windowSeconds ?? 0) * 1000);
    expect((await post('/auth/recovery-password', { email: known })).statusCode).toBe(200);
  });

  it('per recipient: counted on the address as a string, across recovery, resend and registration, in any letter case', async () => {
    const email = uniqueEmail();
    expect((await post('/auth/register', registrationInput({ email }))).statusCode).toBe(200);
    expect((await post('/auth/resend-verification', { email: email.toUpperCase() })).statusCode).toBe(200);
    expect((await post('/auth/recovery-password', { email })).statusCode).toBe(200);
    const refused = await post('/auth/register', registrationInput({ email }));
    expect(refused.statusCode).toBe(429);
    expect(json(refused).message).toBe('Too many messages to this address. Try again in 15 minutes.');
  });

  it('per recipient and hour: a slow flood stops at the hourly limit', async () => {
    const email = uniqueEmail();
    const statuses: number[] = [];
    // Three every quarter of an hour stays under the first rule; the hourly one ends it.
    for (let quarter = 0; quarter < 4; quarter++) {
      for (let i = 0; i < 3; i++) statuses.push((await post('/auth/recovery-password', { email })).statusCode);
      clock.advance(15 * 60 * 1000 + 1000);
    }
    const allowed = perHour?.limit ?? 0;
    expect(statuses.filter((s) => s === 200)).toHaveLength(allowed);
    expect(statuses.slice(allowed)).toEqual(statuses.slice(allowed).map(() => 429));
  });

  it('per caller: one client address may not mail many recipients', async () => {
    const address = clientAddress();
    const limit = perCaller?.limit ?? 0;
    for (let i = 0; i < limit; i++) expect((await post('/auth/recovery-password', { email: uniqueEmail() }, address)).statusCode).toBe(200);
    const refused = await post('/auth/recovery-password', { email: uniqueEmail() }, address);
    expect(refused.statusCode).toBe(429);
    expect(json(refused).message).toMatch(/^Too many requests\. Try again in \d+ minutes?\.$/);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    // Another address is not held back.
    expect((await post('/auth/recovery-password', { email: uniqueEmail() })).statusCode).toBe(200);
  });
});
