import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { VERIFICATION_STATUSES, type AdminCompany } from '../../../domain/company';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { Select } from '../../../ui/select';
import { PageSpinner } from '../../../ui/spinner';
import { AdminCompanyCard } from '../components/admin-company-card';
import { useAdminCompanies, useProfile, type AdminStatusFilter } from '../hooks';
import { statusFilterMessages } from '../messages';
import '../profile.css';

const FILTERS: readonly AdminStatusFilter[] = ['PAYMENT_REPORTED', ...VERIFICATION_STATUSES.filter((status) => status !== 'PAYMENT_REPORTED'), 'all'];

function isFilter(value: string): value is AdminStatusFilter {
  return (FILTERS as readonly string[]).includes(value);
}

/** The platform administrator's page: the verification payments to review (online only), confirmed or rejected here. */
export default function ProfileAdminPage() {
  const { user, isAdmin } = useProfile();

  if (!isAdmin) {
    return (
      <section className="profile" aria-labelledby="profile-admin-title">
        <h1 className="profile__name" id="profile-admin-title">
          <FormattedMessage id="profile.admin.forbiddenTitle" defaultMessage="This page is for platform administrators" />
        </h1>
        <p>
          <FormattedMessage
            id="profile.admin.forbiddenText"
            defaultMessage="Your account has no administrator rights. Your own data is in your profile."
          />
        </p>
        <p>
          <Link href={paths.profile}>
            <FormattedMessage id="profile.admin.toProfile" defaultMessage="Go to your profile" />
          </Link>
        </p>
      </section>
    );
  }

  return (
    <section className="profile profile--wide" aria-labelledby="profile-admin-title">
      <header className="profile__header">
        <h1 className="profile__name" id="profile-admin-title">
          {user.fullName}
        </h1>
        <p className="profile__subtitle">
          <FormattedMessage id="profile.admin.subtitle" defaultMessage="Platform administrator · {email}" values={{ email: user.email }} />
        </p>
      </header>
      <VerificationReview />
      <p>
        <Link href={paths.profile}>
          <FormattedMessage id="profile.admin.toProfile" defaultMessage="Go to your profile" />
        </Link>
      </p>
    </section>
  );
}

function VerificationReview() {
  const intl = useIntl();
  const [filter, setFilter] = useState<AdminStatusFilter>('PAYMENT_REPORTED');
  const { state, reload, replace } = useAdminCompanies(filter);
  const options = useMemo(() => FILTERS.map((id) => ({ id, title: intl.formatMessage(statusFilterMessages[id]) })), [intl]);

  return (
    <div className="profile__card" data-list="verification-review">
      <h2 className="profile__card-title">
        <FormattedMessage id="profile.admin.verificationTitle" defaultMessage="Company verification" />
      </h2>
      <p className="admin-review__lead">
        <FormattedMessage
          id="profile.admin.reviewLead"
          defaultMessage="Companies that reported their verification payment, oldest first. Check that the payment with the invoice number has arrived and confirm it, or reject it with a comment, within 5 days."
        />
      </p>
      <div className="admin-review__filter">
        <Select
          label={intl.formatMessage({ id: 'profile.admin.filter', defaultMessage: 'Show' })}
          name="status"
          value={filter}
          options={options}
          onChange={(value) => {
            if (isFilter(value)) setFilter(value);
          }}
        />
      </div>
      <ReviewList state={state} onRetry={reload} onDecided={replace} />
    </div>
  );
}

function ReviewList({
  state,
  onRetry,
  onDecided,
}: {
  state: ReturnType<typeof useAdminCompanies>['state'];
  onRetry: () => void;
  onDecided: (company: AdminCompany) => void;
}) {
  switch (state.kind) {
    case 'loading':
      return <PageSpinner />;
    case 'offline':
      return (
        <div className="profile__offline" role="status" data-state="offline">
          <p>
            <FormattedMessage
              id="profile.admin.offline"
              defaultMessage="You are offline. The payments to review are not kept on this device: connect to the network to see and decide them."
            />
          </p>
          <Button variant="secondary" onClick={onRetry}>
            <FormattedMessage id="profile.admin.retry" defaultMessage="Try again" />
          </Button>
        </div>
      );
    case 'failed':
      return (
        <div className="profile__offline" role="alert">
          <p>{state.message ?? <FormattedMessage id="profile.admin.failed" defaultMessage="The list could not be loaded." />}</p>
          <Button variant="secondary" onClick={onRetry}>
            <FormattedMessage id="profile.admin.retry" defaultMessage="Try again" />
          </Button>
        </div>
      );
    case 'ready':
      if (state.companies.length === 0) {
        return (
          <p className="admin-review__empty" data-state="empty">
            <FormattedMessage id="profile.admin.empty" defaultMessage="Nothing here: no company in this state." />
          </p>
        );
      }
      return (
        <ul className="admin-review__list">
          {state.companies.map((company) => (
            <li key={company.id}>
              <AdminCompanyCard company={company} onDecided={onDecided} onStale={onRetry} />
            </li>
          ))}
        </ul>
      );
  }
}
