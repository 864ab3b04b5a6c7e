// The company calls of docs/api.md ("Companies"), declared (server/route.ts): any signed-in user lists their
// companies and creates one; members read it; the owner edits it and reports the payment; the owner, the CEO
// and the financial director download the invoice. The platform admin's calls are in admin-routes.ts.

import { object } from 'superstruct';
import { CompanyInput, CompanyPatch } from '../../../src/domain/company';
import { translate } from '../../i18n/messages';
import { access, defineRoute, idParams, ok, type DeclaredRoute } from '../../route';
import { invoiceFileName, renderInvoicePdf } from './invoice';
import { createCompany, invoiceOf, listCompanies, patchCompany, readCompany, reportPayment } from './service';

/** `POST .../payment-reported` takes no fields: an empty body or `{}`; anything else is refused. */
const NoFields = object({});
const companyParams = idParams('companyId');

export const companyRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/companies',
    access: access.user,
    handler: async ({ db, user }) => ok(await listCompanies(db, user.id)),
  }),

  defineRoute({
    method: 'POST',
    path: '/companies',
    access: access.user,
    body: CompanyInput,
    handler: async ({ db, user, body, locale }) => ok(await createCompany(db, user, body), translate(locale, 'mail.notice.companyCreated'), 201),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId',
    access: access.company('company.read'),
    params: companyParams,
    handler: async ({ db, member }) => ok(await readCompany(db, member)),
  }),

  defineRoute({
    method: 'PATCH',
    path: '/companies/:companyId',
    access: access.company('company.edit'),
    params: companyParams,
    body: CompanyPatch,
    handler: async ({ db, member, user, body, locale }) => ok(await patchCompany(db, member, user, body), translate(locale, 'mail.notice.companySaved')),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/invoice',
    access: access.company('company.invoice'),
    params: companyParams,
    handler: async ({ ctx, db, member, locale, reply }) => {
      const company = await invoiceOf(db, member.companyId);
      const number = company.invoice_number ?? '';
      const pdf = await renderInvoicePdf(
        {
          number,
          issuedAt: company.created_at instanceof Date ? company.created_at : new Date(company.created_at),
          timeZone: company.time_zone,
          amountMinor: Number(company.invoice_amount_minor ?? 0),
          payer: { name: company.name, inn: company.inn, kpp: company.kpp },
        },
        locale,
        ctx.config.invoicePayee,
      );
      return reply
        .headers({
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${invoiceFileName(number)}"`,
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
        })
        .send(pdf);
    },
  }),

  defineRoute({
    method: 'POST',
    path: '/companies/:companyId/payment-reported',
    access: access.company('company.reportPayment'),
    params: companyParams,
    body: NoFields,
    bodyMayBeEmpty: true,
    handler: async ({ db, member, locale }) => ok(await reportPayment(db, member), translate(locale, 'mail.notice.paymentReported')),
  }),
];
