// The department calls of docs/api.md ("Departments"), declared (server/route.ts): any member reads them;
// HR, the owner and the CEO change them.

import { DepartmentInput, DepartmentPatch } from '../../../src/domain/company';
import { translate } from '../../i18n/messages';
import { access, defineRoute, idParams, ok, type DeclaredRoute } from '../../route';
import { createDepartment, deleteDepartment, listDepartments, updateDepartment } from './service';

const companyParams = idParams('companyId');
const departmentParams = idParams('companyId', 'departmentId');

export const departmentRoutes: readonly DeclaredRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/companies/:companyId/departments',
    access: access.company('company.read'),
    params: companyParams,
    handler: async ({ db, member }) => ok(await listDepartments(db, member.companyId)),
  }),

  defineRoute({
    method: 'POST',
    path: '/companies/:companyId/departments',
    access: access.company('people.manage'),
    params: companyParams,
    body: DepartmentInput,
    handler: async ({ db, member, body, locale }) =>
      ok(await createDepartment(db, member.companyId, body), translate(locale, 'mail.notice.departmentCreated'), 201),
  }),

  defineRoute({
    method: 'PATCH',
    path: '/companies/:companyId/departments/:departmentId',
    access: access.company('people.manage'),
    params: departmentParams,
    body: DepartmentPatch,
    handler: async ({ db, member, params, body, locale }) =>
      ok(await updateDepartment(db, member.companyId, params.departmentId, body), translate(locale, 'mail.notice.departmentSaved')),
  }),

  defineRoute({
    method: 'DELETE',
    path: '/companies/:companyId/departments/:departmentId',
    access: access.company('people.manage'),
    params: departmentParams,
    handler: async ({ db, member, params, locale }) => {
      await deleteDepartment(db, member.companyId, params.departmentId);
      return ok(null, translate(locale, 'mail.notice.departmentDeleted'));
    },
  }),
];
