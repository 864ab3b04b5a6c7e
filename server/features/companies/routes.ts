// The company calls of docs/api.md ("Companies"): each is struct (shared, from src/domain/company.ts) +
// one access check (requireAccess, or requireAdmin for the platform admin's calls) + a service call;
// mutations run inside runIdempotent, so a refused call changes nothing and a replay answers the stored result.

import type { FastifyInstance } from 'fastify';
import { object } from 'superstruct';
import { CompanyInput, CompanyPatch } from '../../../src/domain/company';
import type { AppContext } from '../../context';
import { localeOf, parseBody } from '../../http';
import { translate } from '../../i18n/messages';
import { runIdempotent } from '../../idempotency';
import { requireAccess } from '../../auth/access';
import { registerAdminCompanyRoutes } from './admin-routes';
import { invoiceFileName, renderInvoicePdf } from './invoice';
import { createCompany, invoiceOf, listCompanies, patchCompany, readCompany, reportPayment } from './service';

/** `POST .../payment-reported` takes no fields: an empty body or `{}`; anything else is refused. */
const NoFields = object({});

export function registerCompanyRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/companies', async (request) => {
    const user = await ctx.requireUser(request);
    return { data: await listCompanies(ctx.db, user.id), message: 'OK' };
  });

  app.post('/companies', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const input = parseBody(CompanyInput, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const data = await createCompany(tx, user, input);
      return { status: 201, body: { data, message: translate(locale, 'mail.notice.companyCreated') } };
    });
  });

  app.get<{ Params: { companyId: string } }>('/companies/:companyId', async (request) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'company.read');
    return { data: await readCompany(ctx.db, member), message: 'OK' };
  });

  app.patch<{ Params: { companyId: string } }>('/companies/:companyId', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const patch = parseBody(CompanyPatch, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const member = await requireAccess(tx, user, request.params.companyId, 'company.edit');
      const data = await patchCompany(tx, member, user, patch);
      return { status: 200, body: { data, message: translate(locale, 'mail.notice.companySaved') } };
    });
  });

  app.get<{ Params: { companyId: string } }>('/companies/:companyId/invoice', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'company.invoice');
    const company = await invoiceOf(ctx.db, member.companyId);
    const number = company.invoice_number ?? '';
    const pdf = await renderInvoicePdf(
      {
        number,
        issuedAt: company.created_at instanceof Date ? company.created_at : new Date(company.created_at),
        amountMinor: Number(company.invoice_amount_minor ?? 0),
        payer: { name: company.name, inn: company.inn, kpp: company.kpp },
      },
      localeOf(request),
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
  });

  app.post<{ Params: { companyId: string } }>('/companies/:companyId/payment-reported', async (request, reply) => {
    const user = await ctx.requireUser(request);
    if (request.body !== undefined) parseBody(NoFields, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const member = await requireAccess(tx, user, request.params.companyId, 'company.reportPayment');
      const data = await reportPayment(tx, member);
      return { status: 200, body: { data, message: translate(locale, 'mail.notice.paymentReported') } };
    });
  });

  registerAdminCompanyRoutes(app, ctx);
}
