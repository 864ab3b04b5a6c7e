import { FormattedMessage, defineMessages } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { SetupChecklist } from '../components/setup-checklist';
import { useDashboardGreeting, useReturnToPendingInvitation, useSetupChecklist } from '../hooks';
import '../dashboard.css';

const plan = defineMessages({
  projects: { id: 'dashboard.plan.projects', defaultMessage: 'Goals, projects and the registry' },
  projectsText: {
    id: 'dashboard.plan.projectsText',
    defaultMessage:
      'Owners set goals; approved proposals become projects with a team and costs calculated by financial specialists; registries of projects go to the owner for approval.',
  },
  figures: { id: 'dashboard.plan.figures', defaultMessage: 'Figures' },
  figuresText: {
    id: 'dashboard.plan.figuresText',
    defaultMessage: 'This page will show efficiency, EBITDA, goals, projects, staff involvement, reports and estimated remuneration.',
  },
});

/** What is still to come; proposals, companies and staff are not listed: they work now (the cards above, the menu). */
const PLAN = [
  { name: plan.projects, text: plan.projectsText },
  { name: plan.figures, text: plan.figuresText },
];

/**
 * The dashboard of this release: who is signed in and what the company setup will offer. It shows no
 * figures: efficiency, EBITDA and the rest come with the companies, staff and proposals behind them.
 */
export default function DashboardPage() {
  const { name, roleTitle, company, isAdmin, memberships } = useDashboardGreeting();
  const checklist = useSetupChecklist();
  useReturnToPendingInvitation();
  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <h1 className="dashboard__title" id="dashboard-title">
        <FormattedMessage id="dashboard.greeting" defaultMessage="Hello, {name}!" values={{ name }} />
      </h1>
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

      {checklist?.isIncomplete && <SetupChecklist checklist={checklist} />}

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

      <div className="dashboard__card">
        <h2 className="dashboard__card-title">
          <FormattedMessage id="dashboard.plan.title" defaultMessage="What the platform will do for your company" />
        </h2>
        <ul className="dashboard__plan">
          {PLAN.map(({ name, text }) => (
            <li className="dashboard__plan-item" key={name.id}>
              <span className="dashboard__plan-name">
                <FormattedMessage {...name} />
              </span>
              <span className="dashboard__plan-text">
                <FormattedMessage {...text} />
              </span>
            </li>
          ))}
        </ul>
        <p className="dashboard__note">
          <FormattedMessage
            id="dashboard.plan.note"
            defaultMessage="These arrive in the next releases. Until your company's data is here, this page shows no figures."
          />
        </p>
      </div>

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
