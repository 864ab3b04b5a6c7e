// The platform admin's calls of docs/api.md ("Companies"): the companies waiting for a payment check and the
// verdict. Only the user with role ADMIN (authority ROLE_ADMIN) may call them (requireAdmin, 403 otherwise);
// the owners are told the verdict by mail, in their own language, once it is committed.

import type { FastifyInstance } from 'fastify';
import { VerificationDecision } from '../../../src/domain/company';
import { paths } from '../../../src/domain/paths';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { localeOf, parseBody } from '../../http';
import { translate } from '../../i18n/messages';
import { runIdempotent } from '../../idempotency';
import { greetingNameOf } from '../../auth/users';
import type { OutgoingMail } from '../../mail/mailer';
import { renderVerificationResultMail } from '../../mail/templates';
import { requireAdmin } from '../../auth/access';
import { decideVerification, isAdminStatusFilter, listAdminCompanies } from './service';

export function registerAdminCompanyRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: { status?: string } }>('/admin/companies', async (request) => {
    const user = await ctx.requireUser(request);
    requireAdmin(user);
    const status = request.query.status === undefined || request.query.status === '' ? 'PAYMENT_REPORTED' : request.query.status;
    if (!isAdminStatusFilter(status)) throw new AppError('validation', 400, { fieldErrors: { status: 'invalid' } });
    return { data: await listAdminCompanies(ctx.db, status), message: 'OK' };
  });

  app.post<{ Params: { companyId: string } }>('/admin/companies/:companyId/verification', async (request, reply) => {
    const user = await ctx.requireUser(request);
    requireAdmin(user);
    const decision = parseBody(VerificationDecision, request.body);
    if (decision.decision === 'REJECTED' && !decision.comment) throw new AppError('validation', 400, { fieldErrors: { comment: 'rejectionReason' } });
    const locale = localeOf(request);
    // Filled only when the decision is made now (not on a replay), sent after the commit.
    const mails: OutgoingMail[] = [];
    const answer = await runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const { company, owners } = await decideVerification(tx, user, request.params.companyId, decision);
      const link = `${ctx.config.appUrl}${paths.company.verificationPaymentCheck(company.id)}`;
      for (const owner of owners) {
        const mail = renderVerificationResultMail(owner.locale, {
          name: greetingNameOf(owner),
          company: company.name,
          decision: decision.decision,
          comment: company.verificationComment,
          link,
        });
        mails.push({ to: owner.email, ...mail, link, kind: 'verificationResult' });
      }
      return { status: 200, body: { data: company, message: translate(locale, `mail.notice.verification.${decision.decision}`) } };
    });
    for (const mail of mails) {
      try {
        await ctx.mailer.send(mail);
      } catch (error) {
        // The verdict is committed and the owners see it in the app; a mail that could not be queued is logged.
        request.log.error({ err: error, to: mail.to }, 'verification result mail failed');
      }
    }
    return answer;
  });
}
