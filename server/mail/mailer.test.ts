import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createTestApp, createTestDatabase, lastMailTo, registrationInput, type TestDatabase } from '../test-support';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let database: TestDatabase;
let smtp: SMTPServer;
let port = 0;
const received: Received[] = [];
const waiters: (() => void)[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  port = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(resolve));
  await database.close();
});

/** Undoes quoted-printable soft line breaks and escapes, enough to find a link in the raw message. */
function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe('mail through SMTP', () => {
  it('delivers the confirmation mail with its link in a real SMTP conversation', async () => {
    const t = await createTestApp({ smtpUrl: `smtp://127.0.0.1:${port}`, mailFrom: 'Dashboard <robot@app.test>' }, database);
    try {
      const input = registrationInput();
      const arrived = new Promise<void>((resolve) => waiters.push(resolve));
      const response = await t.app.inject({ method: 'POST', url: api('/auth/register'), payload: input });
      expect(response.statusCode).toBe(200);
      await arrived;
      await t.ctx.mailer.idle();

      const message = received.find((m) => m.to.includes(String(input.email)));
      expect(message?.from).toBe('robot@app.test');
      const row = await lastMailTo(t.db, String(input.email));
      expect(row.transport).toBe('smtp');
      expect(row.sent_at).toBeInstanceOf(Date);
      expect(row.error).toBeNull();
      expect(decodeQuotedPrintable(message?.raw ?? '')).toContain(row.link);
      expect(row.link).toMatch(/^http:\/\/app\.test\/auth\/register\/verified\?token=/);
      expect(t.printed).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('keeps the message with its error when the SMTP server cannot be reached', async () => {
    const t = await createTestApp({ smtpUrl: 'smtp://127.0.0.1:1' }, database);
    try {
      const input = registrationInput();
      const response = await t.app.inject({ method: 'POST', url: api('/auth/register'), payload: input });
      expect(response.statusCode).toBe(200);
      await t.ctx.mailer.idle();
      const row = await lastMailTo(t.db, String(input.email));
      expect(row.sent_at).toBeNull();
      expect(row.error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await t.close();
    }
  });
});

describe('mail without SMTP', () => {
  it('keeps every message in mail_outbox and prints its link on the console', async () => {
    const t = await createTestApp({ smtpUrl: undefined }, database);
    try {
      const input = registrationInput();
      await t.app.inject({ method: 'POST', url: api('/auth/register'), payload: input });
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
