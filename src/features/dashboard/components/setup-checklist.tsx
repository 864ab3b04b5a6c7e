import { useState, type ReactNode } from 'react';
import { FormattedMessage, defineMessages, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { COMPANY_ROLES, type CompanyRole } from '../../../domain/auth';
import type { InvitationInput } from '../../../domain/company';
import type { StartRequirement } from '../../../domain/company-roles';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { useInviteLeader } from '../form-hooks';
import { useIsOnline, useRoleTitle, type SetupChecklist as Checklist } from '../hooks';
import type { MissingRequirement } from '../setup';
import { InviteLeaderForm } from './invite-leader-form';

const REQUIREMENTS = defineMessages({
  OWNER: { id: 'dashboard.setup.owner', defaultMessage: 'An owner' },
  MANAGER: { id: 'dashboard.setup.manager', defaultMessage: 'A manager' },
  FINANCIAL_DIRECTOR: { id: 'dashboard.setup.financialDirector', defaultMessage: 'A financial director' },
});

const INVITE_BUTTONS = defineMessages({
  OWNER: { id: 'dashboard.setup.inviteOwner', defaultMessage: 'Invite an owner' },
  MANAGER: { id: 'dashboard.setup.inviteManager', defaultMessage: 'Invite a manager' },
  FINANCIAL_DIRECTOR: { id: 'dashboard.setup.inviteFinancialDirector', defaultMessage: 'Invite a financial director' },
});

const VERIFICATION = defineMessages({
  UNVERIFIED: { id: 'dashboard.setup.verification.unverified', defaultMessage: 'Not verified yet: pay the verification invoice.' },
  PAYMENT_REPORTED: { id: 'dashboard.setup.verification.reported', defaultMessage: 'Payment reported: the platform checks it within 5 days.' },
  VERIFIED: { id: 'dashboard.setup.verification.verified', defaultMessage: 'Verified.' },
  REJECTED: { id: 'dashboard.setup.verification.rejected', defaultMessage: 'The payment was not confirmed: see the reason and try again.' },
  unknown: { id: 'dashboard.setup.verification.unknown', defaultMessage: 'The state appears after the first sync.' },
});

function isCompanyRole(role: string): role is CompanyRole {
  return (COMPANY_ROLES as readonly string[]).includes(role);
}

function Step({ isDone, title, children, data }: { isDone: boolean; title: ReactNode; children?: ReactNode; data: string }) {
  const intl = useIntl();
  return (
    <li className={isDone ? 'setup__step setup__step--done' : 'setup__step'} data-step={data} data-done={isDone}>
      <span className="setup__mark" role="img" aria-label={isDone ? intl.formatMessage({ id: 'dashboard.setup.done', defaultMessage: 'Done' }) : intl.formatMessage({ id: 'dashboard.setup.todo', defaultMessage: 'To do' })} />
      <div className="setup__body">
        <span className="setup__title">{title}</span>
        {children}
      </div>
    </li>
  );
}

function RequirementStep({ companyId, item, onSent }: { companyId: string; item: MissingRequirement; onSent: () => void }) {
  const intl = useIntl();
  const roleTitle = useRoleTitle();
  const isOnline = useIsOnline();
  const invite = useInviteLeader(companyId);
  const [isInviting, setInviting] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const roles = item.grantableRoles.filter(isCompanyRole);

  async function send(input: InvitationInput) {
    await invite(input);
    setSentTo(input.email);
    setInviting(false);
    onSent();
  }

  return (
    <li className="setup__step" data-requirement={item.requirement} data-done="false">
      <span className="setup__mark" role="img" aria-label={intl.formatMessage({ id: 'dashboard.setup.todo', defaultMessage: 'To do' })} />
      <div className="setup__body">
        <span className="setup__title">
          <FormattedMessage {...REQUIREMENTS[item.requirement]} />
        </span>
        {item.invited.length > 0 ? (
          <span className="setup__text">
            <FormattedMessage
              id="dashboard.setup.invitedWaiting"
              defaultMessage="Invited: {names}. The requirement is met once one of them joins."
              values={{ names: item.invited.join(', ') }}
            />
          </span>
        ) : (
          <span className="setup__text">
            <FormattedMessage id="dashboard.setup.missing" defaultMessage="Nobody with this role has joined yet." />
          </span>
        )}
        {sentTo && (
          <span className="setup__text setup__text--ok" role="status">
            <FormattedMessage id="dashboard.setup.sent" defaultMessage="The invitation has been sent to {email}." values={{ email: sentTo }} />
          </span>
        )}
        {roles.length === 0 ? (
          <span className="setup__text">
            <FormattedMessage id="dashboard.setup.askOwner" defaultMessage="Only the owner (or the CEO) can invite to this role." />
          </span>
        ) : isInviting ? (
          <InviteLeaderForm roles={roles} roleTitle={roleTitle} isOnline={isOnline} onSubmit={send} onCancel={() => setInviting(false)} />
        ) : (
          <div className="setup__actions">
            <Button variant="secondary" onClick={() => setInviting(true)} data-action={`invite-${item.requirement}`}>
              <FormattedMessage {...INVITE_BUTTONS[item.requirement]} />
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}

function isKnownStatus(status: string): status is keyof typeof VERIFICATION {
  return Object.hasOwn(VERIFICATION, status);
}

/**
 * The setup checklist of the current company, shown while it lacks an owner, a manager or a financial director
 * (who have joined): what is missing with a way to invite them, then the verification, departments and staff.
 */
export function SetupChecklist({ checklist }: { checklist: Checklist }) {
  const { company, missing, verificationStatus, departmentCount, employeeCount, canManagePeople } = checklist;
  const status = verificationStatus !== null && isKnownStatus(verificationStatus) ? verificationStatus : 'unknown';
  const requirementList: StartRequirement[] = missing.map((item) => item.requirement);
  return (
    <section className="dashboard__card setup" aria-labelledby="setup-title" data-section="setup-checklist" data-missing={requirementList.join(' ')}>
      <h2 className="dashboard__card-title" id="setup-title">
        <FormattedMessage id="dashboard.setup.title" defaultMessage="Getting {company} ready" values={{ company: company.name }} />
      </h2>
      <p className="setup__lead">
        <FormattedMessage
          id="dashboard.setup.lead"
          defaultMessage="Goals and proposals start once the company has an owner, a manager and a financial director who have joined the platform."
        />
      </p>
      <ol className="setup__steps">
        {missing.map((item) => (
          <RequirementStep key={item.requirement} companyId={company.id} item={item} onSent={checklist.reloadInvitations} />
        ))}
        <Step
          data="verification"
          isDone={status === 'VERIFIED'}
          title={<FormattedMessage id="dashboard.setup.verification" defaultMessage="Verification of the company" />}
        >
          <span className="setup__text">
            <FormattedMessage {...VERIFICATION[status]} />
          </span>
          {status === 'PAYMENT_REPORTED' ? (
            <Link href={paths.company.verificationPaymentCheck(company.id)}>
              <FormattedMessage id="dashboard.setup.verification.check" defaultMessage="See the state" />
            </Link>
          ) : status !== 'VERIFIED' && status !== 'unknown' ? (
            <Link href={paths.company.verificationPayment(company.id)}>
              <FormattedMessage id="dashboard.setup.verification.pay" defaultMessage="Verification payment" />
            </Link>
          ) : null}
        </Step>
        <Step
          data="departments"
          isDone={departmentCount > 0}
          title={<FormattedMessage id="dashboard.setup.departments" defaultMessage="Departments" />}
        >
          <span className="setup__text">
            <FormattedMessage
              id="dashboard.setup.departmentsCount"
              defaultMessage="{count, plural, =0 {None yet.} one {# department.} other {# departments.}}"
              values={{ count: departmentCount }}
            />
          </span>
          <Link href={paths.company.departments(company.id)}>
            {canManagePeople ? (
              <FormattedMessage id="dashboard.setup.departmentsManage" defaultMessage="Set up the departments" />
            ) : (
              <FormattedMessage id="dashboard.setup.departmentsView" defaultMessage="See the departments" />
            )}
          </Link>
        </Step>
        <Step data="employees" isDone={employeeCount > 1} title={<FormattedMessage id="dashboard.setup.employees" defaultMessage="Employees" />}>
          <span className="setup__text">
            <FormattedMessage
              id="dashboard.setup.employeesCount"
              defaultMessage="{count, plural, one {# employee in the list.} other {# employees in the list.}}"
              values={{ count: employeeCount }}
            />
          </span>
          <span className="setup__links">
            <Link href={paths.company.employees(company.id)}>
              <FormattedMessage id="dashboard.setup.employeesList" defaultMessage="The list" />
            </Link>
            {canManagePeople && (
              <>
                <Link href={paths.company.employeesEdit(company.id)}>
                  <FormattedMessage id="dashboard.setup.employeesAdd" defaultMessage="Add an employee" />
                </Link>
                <Link href={paths.company.employeesImport(company.id)}>
                  <FormattedMessage id="dashboard.setup.employeesImport" defaultMessage="Import from a file" />
                </Link>
              </>
            )}
          </span>
        </Step>
      </ol>
    </section>
  );
}
