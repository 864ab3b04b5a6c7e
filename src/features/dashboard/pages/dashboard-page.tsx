import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { DashboardOverview } from '../components/dashboard-overview';
import { SetupChecklistPart } from '../components/dashboard-parts';
import { useDashboardGreeting, useReturnToPendingInvitation, useSetupChecklist } from '../hooks';
import { useCurrentCompany } from '../../../lib/current-company';
import '../dashboard.css';

/**
 * The dashboard: who is signed in, the setup checklist of the current company on top until the company is ready
 * (an owner, a manager and a financial director have joined), then the company's figures, charts and exports.
 */
export default function DashboardPage() {
  const { name, roleTitle, company, isAdmin, memberships } = useDashboardGreeting();
  const checklist = useSetupChecklist();
  const current = useCurrentCompany();
  useReturnToPendingInvitation();
  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <h1 className="dashboard__title" id="dashboard-title">
        <FormattedMessage id="dashboard.title" defaultMessage="Dashboard" />
      </h1>
      <p className="dashboard__greeting">
        <FormattedMessage id="dashboard.greeting" defaultMessage="Hello, {name}!" values={{ name }} />
      </p>
      <p className="dashboard__who">
        {company ? (
          <FormattedMessage
            id="dashboard.roleInCurrentCompany"
            defaultMessage="Company: {company}. Your role: {role}."
            values={{ role: <strong>{roleTitle}</strong>, company: <strong>{company.name}</strong> }}
          />
        ) : (
          <FormattedMessage id="dashboard.role" defaultMessage="Your role: {role}." values={{ role: <strong>{roleTitle}</strong> }} />
        )}
      </p>

      {memberships.length === 0 && !isAdmin && (
        <div className="dashboard__card dashboard__card--start" data-section="no-company">
          <h2 className="dashboard__card-title">
            <FormattedMessage id="dashboard.noCompany.title" defaultMessage="You are not in a company yet" />
          </h2>
          <p className="dashboard__text">
            <FormattedMessage
              id="dashboard.noCompany.text"
              defaultMessage="Add your company: you become its owner, then verify it and invite its people. If your company already works on the platform, ask its owner or HR to invite you."
            />
          </p>
          <p className="dashboard__links dashboard__links--tight">
            <Link href={paths.companiesCreate} className="button button--primary" data-action="add-company">
              <FormattedMessage id="dashboard.noCompany.add" defaultMessage="Add a company" />
            </Link>
          </p>
        </div>
      )}

      {checklist?.isIncomplete && <SetupChecklistPart checklist={checklist} />}

      {memberships.map((membership) => (
        <div className="dashboard__card" key={membership.id} data-company={membership.id}>
          <h2 className="dashboard__card-title">
            <FormattedMessage id="suggestions.dashboard.title" defaultMessage="Proposals in {company}" values={{ company: membership.name }} />
          </h2>
          <p className="dashboard__links">
            <Link href={paths.company.suggestionsCreate(membership.id)}>
              <FormattedMessage id="suggestions.dashboard.submit" defaultMessage="Submit a proposal" />
            </Link>
            <Link href={paths.company.mySuggestions(membership.id)}>
              <FormattedMessage id="suggestions.dashboard.mine" defaultMessage="My proposals" />
            </Link>
          </p>
        </div>
      ))}

      {current && checklist && !checklist.isIncomplete && <DashboardOverview key={current.id} company={current} />}

      <p className="dashboard__links">
        <Link href={paths.profile}>
          <FormattedMessage id="dashboard.toProfile" defaultMessage="Your profile and language" />
        </Link>
        {isAdmin && (
          <Link href={paths.profileAdmin}>
            <FormattedMessage id="dashboard.toAdmin" defaultMessage="Administrator page" />
          </Link>
        )}
      </p>
    </section>
  );
}
