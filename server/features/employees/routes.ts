// The employee calls of docs/api.md ("Employees"), declared (server/route.ts): any member reads the list
// and a card (contacts only for those who manage people, decided in the service); HR, the owner and the CEO
// add and edit. The import's routes are declared in ./import/routes.ts.

import { type } from 'superstruct';
import { EMPLOYEE_STATES, EmployeeInput, EmployeePatch } from '../../../src/domain/company';
import { translate } from '../../i18n/messages';
import { access, defineRoute, idParams, ok, queryEnum, queryId, queryLimit, queryText, type DeclaredRoute } from '../../route';
import { EMPLOYEE_SEARCH_MAX, createEmployee, listEmployees, readEmployee, updateEmployee } from './service';

export const DEFAULT_EMPLOYEE_LIMIT = 50;
export const MAX_EMPLOYEE_LIMIT = 200;

const companyParams = idParams('companyId');
const employeeParams = idParams('companyId', 'employeeId');

const EmployeeListQuery = type({
  search: queryText(EMPLOYEE_SEARCH_MAX),
  departmentId: queryId,
  state: queryEnum(EMPLOYEE_STATES),
  cursor: queryText(1000),
  limit: queryLimit(DEFAULT_EMPLOYEE_LIMIT, MAX_EMPLOYEE_LIMIT),
});

export const employeeRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/employees',
    access: access.company('company.read'),
    params: companyParams,
    query: EmployeeListQuery,
    handler: async ({ db, member, query: { search, departmentId, state, cursor, limit } }) =>
      ok(await listEmployees(db, member, { search, departmentId, state, cursor, limit })),
  }),

  defineRoute({
    method: 'POST',
    path: '/companies/:companyId/employees',
    access: access.company('people.manage'),
    params: companyParams,
    body: EmployeeInput,
    handler: async ({ db, member, body, locale }) => ok(await createEmployee(db, member, body), translate(locale, 'mail.notice.employeeCreated'), 201),
  }),

  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/employees/:employeeId',
    access: access.company('company.read'),
    params: employeeParams,
    handler: async ({ db, member, params }) => ok(await readEmployee(db, member, params.employeeId)),
  }),

  defineRoute({
    method: 'PATCH',
    path: '/companies/:companyId/employees/:employeeId',
    access: access.company('people.manage'),
    params: employeeParams,
    body: EmployeePatch,
    handler: async ({ db, member, params, body, locale }) =>
      ok(await updateEmployee(db, member, params.employeeId, body), translate(locale, 'mail.notice.employeeSaved')),
  }),
];
