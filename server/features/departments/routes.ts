// The department calls of docs/api.md ("Departments"): struct + one access check + service call; writes
// run in runIdempotent's transaction (the access check is repeated there, on the data being changed).

import type { FastifyInstance } from 'fastify';
import { DepartmentInput, DepartmentPatch } from '../../../src/domain/company';
import type { AppContext } from '../../context';
import { localeOf, parseBody } from '../../http';
import { translate } from '../../i18n/messages';
import { runIdempotent } from '../../idempotency';
import { requireAccess } from '../../auth/access';
import { createDepartment, deleteDepartment, listDepartments, updateDepartment } from './service';

export function registerDepartmentRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { companyId: string } }>('/companies/:companyId/departments', async (request) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'company.read');
    return { data: await listDepartments(ctx.db, member.companyId), message: 'OK' };
  });

  app.post<{ Params: { companyId: string } }>('/companies/:companyId/departments', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const input = parseBody(DepartmentInput, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      await requireAccess(tx, user, member.companyId, 'people.manage');
      const data = await createDepartment(tx, member.companyId, input);
      return { status: 201, body: { data, message: translate(locale, 'mail.notice.departmentCreated') } };
    });
  });

  app.patch<{ Params: { companyId: string; departmentId: string } }>('/companies/:companyId/departments/:departmentId', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const patch = parseBody(DepartmentPatch, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      await requireAccess(tx, user, member.companyId, 'people.manage');
      const data = await updateDepartment(tx, member.companyId, request.params.departmentId, patch);
      return { status: 200, body: { data, message: translate(locale, 'mail.notice.departmentSaved') } };
    });
  });

  app.delete<{ Params: { companyId: string; departmentId: string } }>('/companies/:companyId/departments/:departmentId', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      await requireAccess(tx, user, member.companyId, 'people.manage');
      await deleteDepartment(tx, member.companyId, request.params.departmentId);
      return { status: 200, body: { data: null, message: translate(locale, 'mail.notice.departmentDeleted') } };
    });
  });
}
