// The employee calls of docs/api.md ("Employees"): struct + one access check + service call; writes run
// in runIdempotent's transaction. The import (./import/) registers its own routes.

import type { FastifyInstance } from 'fastify';
import { EmployeeInput, EmployeePatch } from '../../../src/domain/company';
import { isUuid } from '../../../src/domain/suggestion';
import type { AppContext } from '../../context';
import { AppError } from '../../errors';
import { localeOf, parseBody } from '../../http';
import { translate } from '../../i18n/messages';
import { runIdempotent } from '../../idempotency';
import { requireAccess } from '../../auth/access';
import { parseLimit } from '../suggestions/routes';
import { EMPLOYEE_SEARCH_MAX, createEmployee, isEmployeeState, listEmployees, readEmployee, updateEmployee } from './service';

export const DEFAULT_EMPLOYEE_LIMIT = 50;
export const MAX_EMPLOYEE_LIMIT = 200;

type Query = Record<string, string | undefined>;

export function registerEmployeeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { companyId: string }; Querystring: Query }>('/companies/:companyId/employees', async (request) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'company.read');
    const { search, departmentId, state, cursor, limit } = request.query;
    if (search !== undefined && search.length > EMPLOYEE_SEARCH_MAX) throw new AppError('validation', 400, { fieldErrors: { search: 'size' } });
    if (departmentId !== undefined && departmentId !== '' && !isUuid(departmentId)) throw new AppError('validation', 400, { fieldErrors: { departmentId: 'invalid' } });
    if (state !== undefined && state !== '' && !isEmployeeState(state)) throw new AppError('validation', 400, { fieldErrors: { state: 'invalid' } });
    const data = await listEmployees(ctx.db, member, {
      search: search || undefined,
      departmentId: departmentId || undefined,
      state: state && isEmployeeState(state) ? state : undefined,
      cursor: cursor || undefined,
      limit: parseLimit(limit, DEFAULT_EMPLOYEE_LIMIT, MAX_EMPLOYEE_LIMIT),
    });
    return { data, message: 'OK' };
  });

  app.post<{ Params: { companyId: string } }>('/companies/:companyId/employees', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const input = parseBody(EmployeeInput, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const fresh = await requireAccess(tx, user, member.companyId, 'people.manage');
      const data = await createEmployee(tx, fresh, input);
      return { status: 201, body: { data, message: translate(locale, 'mail.notice.employeeCreated') } };
    });
  });

  app.get<{ Params: { companyId: string; employeeId: string } }>('/companies/:companyId/employees/:employeeId', async (request) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'company.read');
    return { data: await readEmployee(ctx.db, member, request.params.employeeId), message: 'OK' };
  });

  app.patch<{ Params: { companyId: string; employeeId: string } }>('/companies/:companyId/employees/:employeeId', async (request, reply) => {
    const user = await ctx.requireUser(request);
    const member = await requireAccess(ctx.db, user, request.params.companyId, 'people.manage');
    const patch = parseBody(EmployeePatch, request.body);
    const locale = localeOf(request);
    return runIdempotent(ctx.db, request, reply, user.id, async (tx) => {
      const fresh = await requireAccess(tx, user, member.companyId, 'people.manage');
      const data = await updateEmployee(tx, fresh, request.params.employeeId, patch);
      return { status: 200, body: { data, message: translate(locale, 'mail.notice.employeeSaved') } };
    });
  });
}
