import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { useProfile } from '../hooks';
import '../profile.css';

/** The platform administrator's profile. Reviewing verification payments arrives with companies. */
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
    <section className="profile" aria-labelledby="profile-admin-title">
      <header className="profile__header">
        <h1 className="profile__name" id="profile-admin-title">
          {user.fullName}
        </h1>
        <p className="profile__subtitle">
          <FormattedMessage id="profile.admin.subtitle" defaultMessage="Platform administrator · {email}" values={{ email: user.email }} />
        </p>
      </header>
      <div className="profile__card">
        <h2 className="profile__card-title">
          <FormattedMessage id="profile.admin.verificationTitle" defaultMessage="Company verification" />
        </h2>
        <p>
          <FormattedMessage
            id="profile.admin.verificationText"
            defaultMessage="Reviewing companies' verification payments arrives together with companies: you will see every company that reported a payment and confirm or reject it within 5 days."
          />
        </p>
      </div>
      <p>
        <Link href={paths.profile}>
          <FormattedMessage id="profile.admin.toProfile" defaultMessage="Go to your profile" />
        </Link>
      </p>
    </section>
  );
}
