// Outgoing mail. Every message is first kept in `mail_outbox` (so nothing is lost and a newcomer can
// find a link without a mail server). With SMTP_URL it is then sent by nodemailer in the background
// and the row records `sent_at` or the error; without it the link is printed on the console.
// Sending never blocks or fails the request that caused it; `idle()` waits for messages in flight.

import nodemailer from 'nodemailer';
import type { Database } from '../db/database';

const CLOSE_WAIT_MS = 10_000;

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  link: string | null;
  kind: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'console';
  send(mail: OutgoingMail): Promise<void>;
  /** Resolves when every message handed to `send` has been delivered or has failed. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  db: Database;
  smtpUrl: string | undefined;
  from: string;
  /** Where the console transport prints (default console.log). */
  print?: (line: string) => void;
}

export function createMailer({ db, smtpUrl, from, print = (line) => console.log(line) }: MailerOptions): Mailer {
  const inFlight = new Set<Promise<void>>();

  if (!smtpUrl) {
    return {
      transport: 'console',
      async send(mail) {
        await db.query(
          `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, link, kind, transport, sent_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'console', now())`,
          [mail.to, mail.subject, mail.text, mail.html, mail.link, mail.kind],
        );
        print(`[mail] to ${mail.to}: ${mail.subject} — ${mail.link ?? '(no link)'}`);
      },
      idle: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
  }

  const transporter = nodemailer.createTransport(smtpUrl);

  async function deliver(id: string, mail: OutgoingMail): Promise<void> {
    try {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      await db.query('UPDATE mail_outbox SET sent_at = now(), error = NULL WHERE id = $1', [id]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`[mail] sending to ${mail.to} failed: ${message}`);
      await db.query('UPDATE mail_outbox SET error = $2 WHERE id = $1', [id, message.slice(0, 1000)]);
    }
  }

  return {
    transport: 'smtp',
    async send(mail) {
      const row = await db.one<{ id: string }>(
        `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, link, kind, transport)
         VALUES ($1, $2, $3, $4, $5, $6, 'smtp') RETURNING id`,
        [mail.to, mail.subject, mail.text, mail.html, mail.link, mail.kind],
      );
      if (!row) throw new Error('mail_outbox insert returned no row');
      const job = deliver(row.id, mail)
        .catch((error: unknown) => console.error('[mail] could not record the outcome:', error))
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
    },
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    async close() {
      // Give messages in flight a moment at shutdown; whatever is left stays in mail_outbox with no sent_at.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.idle(), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)))]);
      clearTimeout(timer);
      transporter.close();
    },
  };
}
