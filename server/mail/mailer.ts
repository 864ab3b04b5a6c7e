// The mail transport: nodemailer over SMTP_URL, or the console (the link printed as
// `[mail] to <address>: <subject> — <link>`, which a newcomer and the browser tests read). It only hands a
// message over; what is sent, when, and that it is sent once is the outbox's business (outbox.ts): mail is
// queued in the transaction of the change that causes it and sent by the job runner.

import nodemailer from 'nodemailer';

/** Kept well under the job lease (runner.ts), so a hanging server fails the attempt before another runner may retry it. */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

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
  /** Hands one message to the transport; rejects when it was not accepted. */
  deliver(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  smtpUrl: string | undefined;
  from: string;
  /** Where the console transport prints (default console.log). */
  print?: (line: string) => void;
}

export function consoleMailLine(mail: Pick<OutgoingMail, 'to' | 'subject' | 'link'>): string {
  return `[mail] to ${mail.to}: ${mail.subject} — ${mail.link ?? '(no link)'}`;
}

export function createMailer({ smtpUrl, from, print = (line) => console.log(line) }: MailerOptions): Mailer {
  if (!smtpUrl) {
    return {
      transport: 'console',
      deliver(mail) {
        print(consoleMailLine(mail));
        return Promise.resolve();
      },
      close: () => Promise.resolve(),
    };
  }

  const transporter = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS });
  return {
    transport: 'smtp',
    async deliver(mail) {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close() {
      transporter.close();
      return Promise.resolve();
    },
  };
}
