import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { CompanyMissing } from '../components/company-missing';
import { useCompany, useCurrentCompanyId } from '../hooks';
import '../companies.css';

function Step({ title, text, children }: { title: ReactNode; text: ReactNode; children: ReactNode }) {
  return (
    <li className="next-steps__item">
      <h2 className="next-steps__title">{title}</h2>
      <p className="next-steps__text">{text}</p>
      <p className="next-steps__links">{children}</p>
    </li>
  );
}

/** After creating a company: what it is called and what comes next, each with its way there. */
export default function CompanyCreatedPage() {
  const currentCompanyId = useCurrentCompanyId();
  const companyId = new URLSearchParams(useSearch()).get('companyId') ?? currentCompanyId ?? '';
  const company = useCompany(companyId);
  if (company === undefined) return <PageSpinner />;

  if (company === null) return <CompanyMissing />;

  return (
    <section className="companies-page" aria-labelledby="company-created-title" data-company-id={company.id}>
      <p className="companies-page__success" role="status">
        <FormattedMessage id="companies.created.badge" defaultMessage="Company added" />
      </p>
      <h1 className="companies-page__title" id="company-created-title">
        {company.name}
      </h1>
      <p className="companies-page__lead">
        <FormattedMessage
          id="companies.created.lead"
          defaultMessage="You are its owner. The improvement flow starts once a manager and a financial director have joined it too. Next:"
        />
      </p>
      <ol className="next-steps">
        <Step
          title={<FormattedMessage id="companies.created.step.verification" defaultMessage="Verify the company" />}
          text={<FormattedMessage id="companies.created.step.verificationText" defaultMessage="Download the invoice, pay it from the company's account and press “I paid”. The review takes up to 5 days." />}
        >
          <Link href={paths.company.verificationPayment(company.id)} data-action="to-verification">
            <FormattedMessage id="companies.created.step.verificationLink" defaultMessage="Go to the invoice" />
          </Link>
        </Step>
        <Step
          title={<FormattedMessage id="companies.created.step.departments" defaultMessage="Create departments" />}
          text={<FormattedMessage id="companies.created.step.departmentsText" defaultMessage="Departments receive improvement proposals; each gets a head who reviews them." />}
        >
          <Link href={paths.company.departments(company.id)}>
            <FormattedMessage id="companies.created.step.departmentsLink" defaultMessage="Departments" />
          </Link>
        </Step>
        <Step
          title={<FormattedMessage id="companies.created.step.employees" defaultMessage="Add employees" />}
          text={<FormattedMessage id="companies.created.step.employeesText" defaultMessage="Add people one by one or import the spreadsheet HR already keeps." />}
        >
          <Link href={paths.company.employees(company.id)}>
            <FormattedMessage id="companies.created.step.employeesLink" defaultMessage="Employees" />
          </Link>
          <Link href={paths.company.employeesImport(company.id)}>
            <FormattedMessage id="companies.created.step.importLink" defaultMessage="Import from a file" />
          </Link>
        </Step>
        <Step
          title={<FormattedMessage id="companies.created.step.invite" defaultMessage="Invite a manager and a financial director" />}
          text={
            <FormattedMessage
              id="companies.created.step.inviteText"
              defaultMessage="They get an e-mail with a link to join the company in their role. Until both have joined, goals and proposals wait."
            />
          }
        >
          <Link href={paths.company.employees(company.id)}>
            <FormattedMessage id="companies.created.step.inviteLink" defaultMessage="Invite people" />
          </Link>
        </Step>
      </ol>
      <p>
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
    </section>
  );
}
