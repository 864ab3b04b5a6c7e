import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { genderOfName } from '../../../domain/name-gender';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { InviteActions } from '../components/invite-actions';
import { useEmployee } from '../hooks';
import '../employees.css';

export default function EmployeeCreateSuccessPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const employeeId = new URLSearchParams(useSearch()).get('employeeId');
  const view = useEmployee(companyId, employeeId);
  if (view === undefined) return <PageSpinner />;

  return (
    <section className="people-page" aria-labelledby="employee-created-title">
      <h1 className="people-page__title" id="employee-created-title">
        <FormattedMessage id="employees.createSuccess.title" defaultMessage="Employee added" />
      </h1>
      {view ? (
        <p className="people-note">
          <FormattedMessage
            id="employees.createSuccess.text"
            defaultMessage="{name} is in the company’s list. Invite them by e-mail so they can sign in and submit proposals."
            values={{ name: <strong>{view.fullName}</strong>, gender: genderOfName(view.employee) }}
          />
        </p>
      ) : (
        <p className="people-note">
          <FormattedMessage id="employees.createSuccess.textNoName" defaultMessage="The employee is in the company’s list." />
        </p>
      )}
      <div className="people-page__actions">
        {view && <InviteActions employee={view.employee} />}
        <Link href={paths.company.employeesEdit(companyId)} className={buttonClassName('secondary')} data-action="add-another">
          <FormattedMessage id="employees.createSuccess.addAnother" defaultMessage="Add another" />
        </Link>
        <Link href={paths.company.employees(companyId)} className={buttonClassName('secondary')} data-action="to-list">
          <FormattedMessage id="employees.createSuccess.toList" defaultMessage="Back to the list" />
        </Link>
        {view && (
          <Link href={paths.company.employee(companyId, view.employee.id)} className={buttonClassName('secondary')}>
            <FormattedMessage id="employees.createSuccess.toEmployee" defaultMessage="Open the employee" />
          </Link>
        )}
      </div>
    </section>
  );
}
