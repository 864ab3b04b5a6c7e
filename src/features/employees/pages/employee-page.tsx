import type { ReactNode } from 'react';
import { FormattedDate, FormattedMessage } from 'react-intl';
import { Link, useParams } from 'wouter';
import { employeeStateOf } from '../../../domain/company';
import { genderOfName } from '../../../domain/name-gender';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { InviteActions } from '../components/invite-actions';
import { StateBadge } from '../components/state-badge';
import { useCanManagePeople, useEmployee, useRoleTitle } from '../hooks';
import '../employees.css';

function Field({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

const dash = <FormattedMessage id="employees.view.notSet" defaultMessage="not set" />;

export default function EmployeePage() {
  const { companyId = '', employeeId = '' } = useParams<{ companyId: string; employeeId: string }>();
  const view = useEmployee(companyId, employeeId);
  const canManage = useCanManagePeople(companyId);
  const roleTitle = useRoleTitle();

  const back = (
    <p className="people-page__back">
      <Link href={paths.company.employees(companyId)}>
        <FormattedMessage id="employees.backToList" defaultMessage="Back to the employees" />
      </Link>
    </p>
  );
  if (view === undefined) return <PageSpinner />;
  if (view === null) {
    return (
      <section className="people-page" aria-labelledby="employee-title">
        {back}
        <h1 className="people-page__title" id="employee-title">
          <FormattedMessage id="employees.view.title" defaultMessage="Employee" />
        </h1>
        <p className="people-note">
          <FormattedMessage id="employees.view.missing" defaultMessage="This employee is not on this device. Connect once so the list can load, or check the link." />
        </p>
      </section>
    );
  }

  const { employee, fullName, department } = view;
  const state = employeeStateOf(employee);
  // The Russian sentences about the person agree with the gender their name shows (neutral when it does not).
  const gender = genderOfName(employee);
  return (
    <section className="people-page" aria-labelledby="employee-title" data-employee={employee.id}>
      {back}
      <div className="people-page__head">
        <h1 className="people-page__title" id="employee-title">
          {fullName}
        </h1>
        <StateBadge state={state} />
      </div>
      <div className="people-card">
        <dl className="employee-details">
          <Field label={<FormattedMessage id="employees.form.position" defaultMessage="Position" />}>{employee.position ?? dash}</Field>
          <Field label={<FormattedMessage id="employees.form.department" defaultMessage="Department" />}>{department?.name ?? dash}</Field>
          <Field label={<FormattedMessage id="employees.form.roles" defaultMessage="Roles" />}>
            {employee.roles.length > 0 ? employee.roles.map(roleTitle).join(', ') : dash}
          </Field>
          <Field label={<FormattedMessage id="employees.form.email" defaultMessage="E-mail" />}>{employee.email ?? dash}</Field>
          <Field label={<FormattedMessage id="employees.form.serviceNumber" defaultMessage="Service number" />}>{employee.serviceNumber ?? dash}</Field>
          <Field label={<FormattedMessage id="employees.view.state" defaultMessage="State" />}>
            {state === 'invited' && employee.invitedAt ? (
              <FormattedMessage
                id="employees.view.invitedAt"
                defaultMessage="Invited on {date}, has not joined yet"
                values={{ date: <FormattedDate value={employee.invitedAt} dateStyle="medium" />, gender }}
              />
            ) : state === 'active' ? (
              <FormattedMessage id="employees.view.joined" defaultMessage="Has an account and works in the platform" />
            ) : state === 'inactive' ? (
              <FormattedMessage id="employees.view.inactive" defaultMessage="Inactive: cannot sign in to this company" values={{ gender }} />
            ) : (
              <FormattedMessage id="employees.view.noAccount" defaultMessage="Not invited to the platform yet" values={{ gender }} />
            )}
          </Field>
          <Field label={<FormattedMessage id="employees.view.source" defaultMessage="Added" values={{ gender }} />}>
            {employee.imported ? (
              <FormattedMessage
                id="employees.view.imported"
                defaultMessage="Imported from a file on {date}"
                values={{ date: <FormattedDate value={employee.createdAt} dateStyle="medium" />, gender }}
              />
            ) : (
              <FormattedDate value={employee.createdAt} dateStyle="medium" />
            )}
          </Field>
        </dl>
      </div>
      {canManage && (
        <div className="people-page__actions" data-section="employee-actions">
          <Link href={`${paths.company.employeesEdit(companyId)}?employeeId=${encodeURIComponent(employee.id)}`} className={buttonClassName('secondary')} data-action="edit">
            <FormattedMessage id="employees.view.edit" defaultMessage="Edit" />
          </Link>
          <InviteActions employee={employee} />
        </div>
      )}
    </section>
  );
}
