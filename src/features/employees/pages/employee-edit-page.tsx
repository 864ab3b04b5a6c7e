import { FormattedMessage } from 'react-intl';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { EmployeeForm, type EmployeeDraft } from '../components/employee-form';
import { draftOf, inputOf, patchOf } from '../drafts';
import { useCanManagePeople, useDepartmentOptions, useEmployee, useEmployeeWrites, useIsOnline, useMyCompanyRoles, useRoleTitle } from '../hooks';
import '../employees.css';

export default function EmployeeEditPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const employeeId = new URLSearchParams(useSearch()).get('employeeId');
  const [, navigate] = useLocation();
  const canManage = useCanManagePeople(companyId);
  const granterRoles = useMyCompanyRoles(companyId);
  const roleTitle = useRoleTitle();
  const isOnline = useIsOnline();
  const departments = useDepartmentOptions(companyId);
  const view = useEmployee(companyId, employeeId);
  const writes = useEmployeeWrites(companyId);

  const back = employeeId ? paths.company.employee(companyId, employeeId) : paths.company.employees(companyId);
  const header = (
    <>
      <p className="people-page__back">
        <Link href={back}>
          {employeeId ? (
            <FormattedMessage id="employees.edit.backToEmployee" defaultMessage="Back to the employee" />
          ) : (
            <FormattedMessage id="employees.backToList" defaultMessage="Back to the employees" />
          )}
        </Link>
      </p>
      <h1 className="people-page__title" id="employee-edit-title">
        {employeeId ? (
          <FormattedMessage id="employees.edit.editTitle" defaultMessage="Edit the employee" />
        ) : (
          <FormattedMessage id="employees.edit.createTitle" defaultMessage="New employee" />
        )}
      </h1>
    </>
  );

  if (!canManage) {
    return (
      <section className="people-page" aria-labelledby="employee-edit-title">
        {header}
        <p className="people-note">
          <FormattedMessage id="employees.edit.forbidden" defaultMessage="Only HR, the owner or the CEO can add and edit employees." />
        </p>
      </section>
    );
  }
  if (departments === undefined || view === undefined) return <PageSpinner />;
  if (employeeId && view === null) {
    return (
      <section className="people-page" aria-labelledby="employee-edit-title">
        {header}
        <p className="people-note">
          <FormattedMessage id="employees.view.missing" defaultMessage="This employee is not on this device. Connect once so the list can load, or check the link." />
        </p>
      </section>
    );
  }

  const initial = view ? draftOf(view.employee) : undefined;

  async function save(draft: EmployeeDraft) {
    if (view && initial) {
      const patch = patchOf(initial, draft);
      if (Object.keys(patch).length > 0) await writes.update(view.employee.id, patch);
      navigate(paths.company.employee(companyId, view.employee.id));
      return;
    }
    const created = await writes.create(inputOf(draft));
    navigate(`${paths.company.employeesCreateSuccess(companyId)}?employeeId=${encodeURIComponent(created.id)}`);
  }

  return (
    <section className="people-page" aria-labelledby="employee-edit-title">
      {header}
      <EmployeeForm
        key={view?.employee.id ?? 'new'}
        initial={initial}
        departments={departments}
        granterRoles={granterRoles}
        roleTitle={roleTitle}
        isOnline={isOnline}
        onSubmit={save}
      />
    </section>
  );
}
