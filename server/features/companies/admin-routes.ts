// The platform admin's calls of docs/api.md ("Companies"), declared (server/route.ts): the companies waiting
// for a payment check and the verdict. Only the user with role ADMIN (authority ROLE_ADMIN) may call them
// (`access.admin`: 403 otherwise, before anything of the request is read); the owners are told the verdict by
// mail, in their own language, queued in the verdict's transaction.

import { refine, type } from 'superstruct';
import { VerificationDecision } from '../../../src/domain/company';
import { paths } from '../../../src/domain/paths';
import { translate } from '../../i18n/messages';
import { greetingNameOf } from '../../auth/users';
import { queueMail } from '../../mail/outbox';
import { renderVerificationResultMail } from '../../mail/templates';
import { access, defineRoute, idParams, ok, queryEnum, type DeclaredRoute } from '../../route';
import { ADMIN_STATUS_FILTERS, decideVerification, listAdminCompanies } from './service';

/** `?status=`: one verification status, or `all`; the companies waiting for a check when absent or empty. */
const AdminCompanyListQuery = type({ status: queryEnum(ADMIN_STATUS_FILTERS) });

/** A rejection says why: the owners read the comment in the mail and on the company's page. */
const Verdict = refine(VerificationDecision, 'rejectionReason', (verdict) =>
  verdict.decision === 'REJECTED' && !verdict.comment ? { path: ['comment'] } : true,
);

export const adminCompanyRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/admin/companies',
    access: access.admin,
    query: AdminCompanyListQuery,
    handler: async ({ db, query }) => ok(await listAdminCompanies(db, query.status ?? 'PAYMENT_REPORTED')),
  }),

  defineRoute({
    method: 'POST',
    path: '/admin/companies/:companyId/verification',
    access: access.admin,
    params: idParams('companyId'),
    body: Verdict,
    handler: async ({ ctx, db, user, params, body, locale }) => {
      const { company, owners } = await decideVerification(db, user, params.companyId, body);
      const link = `${ctx.config.appUrl}${paths.company.verificationPaymentCheck(company.id)}`;
      for (const owner of owners) {
        const mail = renderVerificationResultMail(owner.locale, {
          name: greetingNameOf(owner),
          company: company.name,
          decision: body.decision,
          comment: company.verificationComment,
          link,
        });
        await queueMail(db, { to: owner.email, ...mail, link, kind: 'verificationResult' });
      }
      return ok(company, translate(locale, `mail.notice.verification.${body.decision}`));
    },
  }),
];
