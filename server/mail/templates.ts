// The texts of every mail the service sends, in the recipient's language (locale ids `mail.*`).
// Each mail has a subject, a plain-text body and a small HTML body carrying the same words and link.

import type { Locale } from '../../src/domain/auth';
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
