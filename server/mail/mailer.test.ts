import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../clock';
import { enqueueJob } from '../jobs/runner';
import {
  api,
  clientAddress,
  createTestApp,
  createTestDatabase,
  lastMailTo,
  mailsTo,
  openSameDatabase,
  registrationInput,
  uniqueEmail,
  type TestDatabase,
} from '../test-support';
import { MAIL_MAX_ATTEMPTS, MAIL_SEND_JOB, queueMail } from './outbox';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let database: TestDatabase;
let smtp: SMTPServer;
let smtpUrl = '';
const received: Received[] = [];
/** How many of the next MAIL FROM commands the server answers 451 (try again later). */
let refuseNext = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onMailFrom(_address, _session, callback) {
      if (refuseNext > 0) {
        refuseNext -= 1;
        callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
  await database.close();
});

beforeEach(() => {
  refuseNext = 0;
});

const receivedBy = (email: string) => received.filter((m) => m.to.includes(email));

/** Undoes quoted-printable soft line breaks and escapes, enough to find a link in the raw message. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function mailTo(to: string, subject = 'Hello') {
  return { to, subject, text: 'Text', html: '<p>Text</p>', link: `http://app.test/${subject}`, kind: 'test' };
}

interface JobRow {
  state: string;
  attempts: number;
  run_at: Date;
  last_error: string | null;
}

async function sendJobOf(mailId: string): Promise<JobRow | null> {
  return database.db.one<JobRow>(`SELECT state, attempts, run_at, last_error FROM jobs WHERE kind = $1 AND payload->>'mailId' = $2`, [MAIL_SEND_JOB, mailId]);
}

async function outboxRow(mailId: string) {
  return database.db.one<{ sent_at: Date | null; error: string | null; attempts: number; transport: string | null }>(
    'SELECT sent_at, error, attempts, transport FROM mail_outbox WHERE id = $1',
    [mailId],
  );
}

describe('mail through SMTP', () => {
  it('sends the confirmation mail once, in a real SMTP conversation, after the job ran', async () => {
    const t = await createTestApp({ smtpUrl, mailFrom: 'Dashboard <robot@app.test>' }, database);
    try {
      const input = registrationInput();
      const email = String(input.email);
      const response = await t.app.inject({ method: 'POST', url: api('/auth/register'), remoteAddress: clientAddress(), payload: input });
      expect(response.statusCode).toBe(200);
      expect(receivedBy(email)).toEqual([]);

      await t.ctx.jobs.runDue();
      await t.ctx.jobs.runDue();
      const messages = receivedBy(email);
      expect(messages).toHaveLength(1);
      expect(messages[0]?.from).toBe('robot@app.test');
      const row = await lastMailTo(t.db, email);
      expect(row).toMatchObject({ transport: 'smtp', error: null, attempts: 1 });
      expect(row.sent_at).toBeInstanceOf(Date);
      expect(decodeQuotedPrintable(messages[0]?.raw ?? '')).toContain(row.link);
      expect(row.link).toMatch(/^http:\/\/app\.test\/auth\/register\/verified\?token=/);
      expect(t.printed).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('retries with backoff after the SMTP server refused, and sends once when it accepts', async () => {
    const clock = createManualClock(new Date('2026-03-01T09:00:00Z'));
    const t = await createTestApp({ smtpUrl }, database, { clock });
    try {
      const email = uniqueEmail('refused');
      const mailId = await t.db.transaction((tx) => queueMail(tx, mailTo(email)));
      refuseNext = 2;

      await t.ctx.jobs.runDue();
      expect(receivedBy(email)).toEqual([]);
      expect(await outboxRow(mailId)).toMatchObject({ sent_at: null, attempts: 1, error: expect.stringMatching(/451|try again/i) as unknown });
      expect(await sendJobOf(mailId)).toMatchObject({ state: 'pending', attempts: 1, run_at: new Date('2026-03-01T09:00:30Z') });

      // Not due yet: nothing is tried before the backoff ends.
      clock.advance(29_000);
      await t.ctx.jobs.runDue();
      expect((await outboxRow(mailId))?.attempts).toBe(1);

      clock.advance(1000);
      await t.ctx.jobs.runDue();
      expect(await sendJobOf(mailId)).toMatchObject({ state: 'pending', attempts: 2, run_at: new Date('2026-03-01T09:01:30Z') });

      clock.advance(60_000);
      await t.ctx.jobs.runDue();
      expect(receivedBy(email)).toHaveLength(1);
      expect(await outboxRow(mailId)).toMatchObject({ error: null, attempts: 3, transport: 'smtp', sent_at: new Date('2026-03-01T09:01:30Z') });
      expect(await sendJobOf(mailId)).toMatchObject({ state: 'done', attempts: 3, last_error: null });

      clock.advance(24 * 3600 * 1000);
      await t.ctx.jobs.runDue();
      expect(receivedBy(email)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('keeps a mail it could never send, failed with its error, after the last attempt', async () => {
    const clock = createManualClock(new Date('2026-03-02T09:00:00Z'));
    const t = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:1' }, database, { clock });
    try {
      const email = uniqueEmail('unreachable');
      const mailId = await t.db.transaction((tx) => queueMail(tx, mailTo(email)));
      for (let i = 0; i < MAIL_MAX_ATTEMPTS + 2; i++) {
        await t.ctx.jobs.runDue();
        clock.advance(2 * 3600 * 1000);
      }
      expect(await sendJobOf(mailId)).toMatchObject({ state: 'failed', attempts: MAIL_MAX_ATTEMPTS, last_error: expect.stringMatching(/ECONNREFUSED|connect/i) as unknown });
      expect(await outboxRow(mailId)).toMatchObject({ sent_at: null, attempts: MAIL_MAX_ATTEMPTS, error: expect.stringMatching(/ECONNREFUSED|connect/i) as unknown });
    } finally {
      await t.close();
    }
  });

  it('never sends a mail twice when two server processes race for it', async () => {
    const second = await openSameDatabase(database);
    const a = await createTestApp({ smtpUrl }, database);
    const b = await createTestApp({ smtpUrl }, { ...database, db: second.db });
    try {
      const emails = Array.from({ length: 12 }, () => uniqueEmail('race'));
      const ids = await a.db.transaction(async (tx) => Promise.all(emails.map((email) => queueMail(tx, mailTo(email)))));
      // A second send job for one mail (as a lapsed lease would leave): the outbox row still goes once.
      const [firstId = ''] = ids;
      await a.db.transaction((tx) => enqueueJob(tx, { kind: MAIL_SEND_JOB, payload: { mailId: firstId } }));

      await Promise.all([a.ctx.jobs.runDue(), b.ctx.jobs.runDue(), a.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
      for (const email of emails) expect(receivedBy(email), email).toHaveLength(1);
      // Each row was taken for sending exactly once.
      for (const id of ids) expect(await outboxRow(id)).toMatchObject({ attempts: 1, sent_at: expect.any(Date) as unknown });
    } finally {
      await a.close();
      await b.close();
      await second.close();
    }
  });
});

describe('mail is part of the change that causes it', () => {
  it('queues nothing when the transaction rolls back', async () => {
    const t = await createTestApp({ smtpUrl: undefined }, database);
    try {
      const email = uniqueEmail('rolled-back');
      const count = () => t.db.one('SELECT (SELECT count(*)::int FROM jobs) AS jobs, (SELECT count(*)::int FROM mail_outbox) AS mails');
      const before = await count();
      await expect(
        t.db.transaction(async (tx) => {
          await queueMail(tx, mailTo(email));
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      expect(await count()).toEqual(before);
      expect(await mailsTo(t.db, email)).toEqual([]);
      expect(t.printed).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('mail without SMTP', () => {
  it('keeps every message in mail_outbox and prints its link on the console once its job ran', async () => {
    const t = await createTestApp({ smtpUrl: undefined }, database);
    try {
      const input = registrationInput();
      await t.app.inject({ method: 'POST', url: api('/auth/register'), remoteAddress: clientAddress(), payload: input });
      expect(t.printed).toEqual([]);
      const row = await lastMailTo(t.db, String(input.email));
      expect(row).toMatchObject({ transport: 'console', kind: 'verify', subject: 'Подтвердите адрес электронной почты' });
      expect(row.sent_at).toBeInstanceOf(Date);
      expect(row.html_body).toContain(`href="${row.link}"`);
      expect(t.printed).toEqual([`[mail] to ${String(input.email)}: Подтвердите адрес электронной почты — ${row.link}`]);
    } finally {
      await t.close();
    }
  });
});
