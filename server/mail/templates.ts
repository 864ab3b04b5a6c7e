// The texts of every mail the service sends, in the recipient's language (locale ids `mail.*`).
// Each mail has a subject, a plain-text body and a small HTML body carrying the same words and link.

import type { Locale } from '../../src/domain/auth';
import { NOTIFICATION_KINDS } from '../../src/domain/notification';
import { SUGGESTION_DUE_DAYS, SUGGESTION_REMINDER_DAY } from '../../src/domain/suggestion';
import { translate } from '../i18n/messages';

export type MailKind = 'verify' | 'recovery' | 'existing';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

export function renderMail(kind: MailKind, locale: Locale, values: { name: string; link: string }): RenderedMail {
  const t = (id: string) => translate(locale, id, values);
  const subject = t(`mail.${kind}.subject`);
  const greeting = t('mail.greeting');
  const body = t(`mail.${kind}.body`);
  const action = t(`mail.${kind}.action`);
  const footer = t('mail.footer');
  const text = [greeting, body, `${action}: ${values.link}`, footer].join('\n\n') + '\n';
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #111827; line-height: 1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(body)}</p>
<p><a href="${escapeHtml(values.link)}" style="display: inline-block; padding: 10px 16px; background: #2563eb; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(action)}</a></p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(values.link)}</p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(footer)}</p>
</body></html>
`;
  return { subject, text, html };
}

/**
 * The platform admin's verdict on a reported verification payment, to each owner of the company
 * (`mail.verificationResult.<VERIFIED|REJECTED>.*`, with the admin's comment when there is one).
 */
export function renderVerificationResultMail(
  locale: Locale,
  values: { name: string; company: string; decision: 'VERIFIED' | 'REJECTED'; comment: string | null; link: string },
): RenderedMail {
  const t = (id: string) => translate(locale, id, { name: values.name, company: values.company, comment: values.comment ?? '' });
  const prefix = `mail.verificationResult.${values.decision}`;
  const subject = t(`${prefix}.subject`);
  const paragraphs = [t('mail.greeting'), t(`${prefix}.body`), ...(values.comment ? [t('mail.verificationResult.comment')] : [])];
  const action = t('mail.verificationResult.action');
  const footer = t('mail.verificationResult.footer');
  const text = [...paragraphs, `${action}: ${values.link}`, footer].join('\n\n') + '\n';
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #111827; line-height: 1.5">
${paragraphs.map((p) => `<p style="white-space: pre-line">${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(values.link)}" style="display: inline-block; padding: 10px 16px; background: #2563eb; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(action)}</a></p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(values.link)}</p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(footer)}</p>
</body></html>
`;
  return { subject, text, html };
}

/**
 * An invitation to join a company (`mail.invitation.*`): who invites, to which company, with which roles,
 * and the link that is valid for `days` days.
 */
export function renderInvitationMail(
  locale: Locale,
  values: { name: string; company: string; inviter: string; roles: string; roleCount: number; days: number; link: string },
): RenderedMail {
  const t = (id: string) => translate(locale, id, values);
  const subject = t('mail.invitation.subject');
  const paragraphs = [t('mail.greeting'), t('mail.invitation.body')];
  const action = t('mail.invitation.action');
  const footer = t('mail.invitation.footer');
  const text = [...paragraphs, `${action}: ${values.link}`, footer].join('\n\n') + '\n';
  const html = `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #111827; line-height: 1.5">
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(values.link)}" style="display: inline-block; padding: 10px 16px; background: #2563eb; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(action)}</a></p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(values.link)}</p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(footer)}</p>
</body></html>
`;
  return { subject, text, html };
}

// ------------------------------------------------------------------------------------------ notifications

/** The words of one notification (src/domain/notification.ts), as `notify` stored them. */
export interface NotificationWords {
  kind: string;
  params: Record<string, string | null>;
  /** The link to its proposal, goal or project (or to the notifications page when it names none). */
  link: string;
  createdAt: Date;
}

const NOTIFICATION_MAIL_KINDS = new Set(NOTIFICATION_KINDS as readonly string[]);
/** What a notification's `comment` is to its reader: a rejection's reason, a clarification's question. */
const COMMENT_LABEL: Partial<Record<string, string>> = {
  SUGGESTION_REJECTED: 'mail.notification.reason',
  SUGGESTION_CLARIFICATION: 'mail.notification.question',
  GOAL_CLARIFICATION: 'mail.notification.question',
  PROJECT_FOR_REVISION: 'mail.notification.reason',
  REGISTRY_RETURNED: 'mail.notification.reason',
};

/** What a notification is about, from its kind: a proposal (also an unknown kind), a goal, a project or a registry. */
function subjectOf(kind: string): 'suggestion' | 'goal' | 'project' | 'registry' {
  if (kind.startsWith('GOAL_')) return 'goal';
  if (kind.startsWith('PROJECT_')) return 'project';
  if (kind.startsWith('REGISTRY_')) return 'registry';
  return 'suggestion';
}

/** The button of a notification's mail, by what it is about. */
const ACTION_OF: Record<ReturnType<typeof subjectOf>, string> = {
  suggestion: 'mail.notification.action',
  goal: 'mail.notification.actionGoal',
  project: 'mail.notification.actionProject',
  registry: 'mail.notification.actionRegistry',
};

/** A calendar date 'YYYY-MM-DD' in the recipient's language, as that very day (no time zone shifts it). */
function formatMailCalendarDate(locale: Locale, value: string | null): string | null {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** Dates in mail: the recipient's language, Moscow time (the message says so), as invoice.ts writes them. */
export function formatMailDateTime(locale: Locale, value: Date): string {
  return new Intl.DateTimeFormat(locale === 'ru' ? 'ru-RU' : 'en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'Europe/Moscow',
  }).format(value);
}

function notificationTexts(locale: Locale, words: NotificationWords): { subject: string; paragraphs: string[] } {
  const kind = NOTIFICATION_MAIL_KINDS.has(words.kind) ? words.kind : 'other';
  const { title, byName, comment, departmentName, dueAt, number } = words.params;
  const due = dueAt && !Number.isNaN(Date.parse(dueAt)) ? formatMailDateTime(locale, new Date(dueAt)) : null;
  const dueDate = formatMailCalendarDate(locale, words.params.dueDate ?? null);
  const values = {
    title: title ?? '',
    number: number ?? '',
    byName: byName || translate(locale, 'mail.notification.someone'),
    days: SUGGESTION_DUE_DAYS - SUGGESTION_REMINDER_DAY,
    dueDate: dueDate ?? '',
    hasDueDate: dueDate ? 'yes' : 'no',
  };
  const t = (id: string, extra: Record<string, string> = {}) => translate(locale, id, { ...values, ...extra });
  const paragraphs = [t(`mail.notification.${kind}.body`)];
  if (comment) paragraphs.push(t(COMMENT_LABEL[kind] ?? 'mail.notification.comment', { comment }));
  if (departmentName) paragraphs.push(t('mail.notification.department', { departmentName }));
  if (due) paragraphs.push(t('mail.notification.due', { dueAt: due }));
  return { subject: t(`mail.notification.${kind}.subject`), paragraphs };
}

function mailHtml(locale: Locale, subject: string, blocks: string[], link: string, action: string, footer: string): string {
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: system-ui, sans-serif; color: #111827; line-height: 1.5">
${blocks.join('\n')}
<p><a href="${escapeHtml(link)}" style="display: inline-block; padding: 10px 16px; background: #2563eb; color: #ffffff; border-radius: 6px; text-decoration: none">${escapeHtml(action)}</a></p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(link)}</p>
<p style="color: #6b7280; font-size: 13px">${escapeHtml(footer)}</p>
</body></html>
`;
}

/**
 * One notification as its own mail (`mail.notification.<KIND>.*`): what happened to which proposal, goal or
 * project, the reason or question, the department and the due date when the notification carries them, and the
 * link to what it is about.
 */
export function renderNotificationMail(locale: Locale, values: { name: string; company: string; notification: NotificationWords }): RenderedMail {
  const { subject, paragraphs } = notificationTexts(locale, values.notification);
  const all = [translate(locale, 'mail.greeting', { name: values.name }), ...paragraphs];
  const about = subjectOf(values.notification.kind);
  const action = translate(locale, ACTION_OF[about]);
  const footer = translate(locale, about === 'suggestion' ? 'mail.notification.footer' : 'mail.notification.footerWork', { company: values.company });
  const link = values.notification.link;
  const text = [...all, `${action}: ${link}`, footer].join('\n\n') + '\n';
  const html = mailHtml(locale, subject, all.map((p) => `<p style="white-space: pre-line">${escapeHtml(p)}</p>`), link, action, footer);
  return { subject, text, html };
}

/** The notifications of one company in a digest, newest first. */
export interface DigestGroup {
  company: string;
  notifications: NotificationWords[];
}

/**
 * The daily digest (`mail.digest.*`): every notification not mailed yet, grouped by company, newest first,
 * each with its own line, time and link; the button opens the notifications page (`link`).
 */
export function renderDigestMail(locale: Locale, values: { name: string; groups: DigestGroup[]; link: string }): RenderedMail {
  const count = values.groups.reduce((sum, group) => sum + group.notifications.length, 0);
  const subject = translate(locale, 'mail.digest.subject', { count });
  const greeting = translate(locale, 'mail.greeting', { name: values.name });
  const intro = translate(locale, 'mail.digest.intro', { count });
  const action = translate(locale, 'mail.digest.action');
  const footer = translate(locale, 'mail.digest.footer');
  const textGroups: string[] = [];
  const htmlGroups: string[] = [];
  for (const group of values.groups) {
    const items = group.notifications.map((notification) => ({ ...notificationTexts(locale, notification), notification }));
    textGroups.push(
      [
        group.company,
        ...items.map(({ subject: line, paragraphs, notification }) =>
          [`- ${line} (${formatMailDateTime(locale, notification.createdAt)})`, ...paragraphs.slice(1).map((p) => `  ${p}`), `  ${notification.link}`].join('\n'),
        ),
      ].join('\n'),
    );
    htmlGroups.push(
      `<h3 style="margin: 24px 0 8px">${escapeHtml(group.company)}</h3>\n<ul style="padding-left: 20px">\n` +
        items
          .map(
            ({ subject: line, paragraphs, notification }) =>
              `<li style="margin-bottom: 12px"><a href="${escapeHtml(notification.link)}">${escapeHtml(line)}</a>` +
              ` <span style="color: #6b7280; font-size: 13px">${escapeHtml(formatMailDateTime(locale, notification.createdAt))}</span>` +
              paragraphs
                .slice(1)
                .map((p) => `<br><span style="white-space: pre-line">${escapeHtml(p)}</span>`)
                .join('') +
              '</li>',
          )
          .join('\n') +
        '\n</ul>',
    );
  }
  const text = [greeting, intro, ...textGroups, `${action}: ${values.link}`, footer].join('\n\n') + '\n';
  const html = mailHtml(locale, subject, [`<p>${escapeHtml(greeting)}</p>`, `<p>${escapeHtml(intro)}</p>`, ...htmlGroups], values.link, action, footer);
  return { subject, text, html };
}
