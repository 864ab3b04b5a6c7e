import { useState, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { NotificationMailForm } from '../components/notification-mail-form';
import { PasswordForm } from '../components/password-form';
import { PersonalDataForm } from '../components/personal-data-form';
import { notificationMailOf, useChangePassword, useIsOffline, useLanguage, useProfile, useSignOut, useUpdateNotificationMail, useUpdateProfile } from '../hooks';
import '../profile.css';

function Fact({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

export default function ProfilePage() {
  const { user, roleTitle, positionTitle, mainGoalTitle, departmentName, isAdmin, memberships } = useProfile();
  const { locale, setLocale } = useLanguage();
  const updateProfile = useUpdateProfile();
  const changePassword = useChangePassword();
  const updateNotificationMail = useUpdateNotificationMail();
  const signOut = useSignOut();
  const isOffline = useIsOffline();
  const [isSigningOut, setSigningOut] = useState(false);
  const notGiven = <FormattedMessage id="profile.notGiven" defaultMessage="not given" />;

  return (
    <section className="profile" aria-labelledby="profile-title">
      <header className="profile__header">
        <h1 className="profile__name" id="profile-title">
          {user.fullName}
        </h1>
        <p className="profile__subtitle">{user.email}</p>
      </header>

      {isOffline && (
        <p className="profile__offline" role="status" data-state="offline">
          <FormattedMessage
            id="profile.offlineNote"
            defaultMessage="You are offline: this is what the device remembers. Changing your data or password needs a connection."
          />
        </p>
      )}

      <div className="profile__card">
        <h2 className="profile__card-title">
          <FormattedMessage id="profile.personal" defaultMessage="Personal data" />
        </h2>
        <PersonalDataForm user={user} onSubmit={updateProfile} />
        <dl className="profile__facts profile__facts--after-form">
          <Fact term={<FormattedMessage id="profile.email" defaultMessage="E-mail" />}>
            {user.email}
            {user.emailVerified ? (
              <span className="profile__badge profile__badge--ok">
                {user.email_verified_at ? (
                  <FormattedMessage
                    id="profile.emailVerifiedAt"
                    defaultMessage="confirmed {date}"
                    values={{ date: <FormattedDate value={user.email_verified_at} dateStyle="medium" /> }}
                  />
                ) : (
                  <FormattedMessage id="profile.emailVerified" defaultMessage="confirmed" />
                )}
              </span>
            ) : (
              <span className="profile__badge profile__badge--warn">
                <FormattedMessage id="profile.emailNotVerified" defaultMessage="not confirmed" />
              </span>
            )}
          </Fact>
          <Fact term={<FormattedMessage id="profile.position" defaultMessage="Position" />}>{positionTitle ?? notGiven}</Fact>
        </dl>
      </div>

      <div className="profile__card">
        <h2 className="profile__card-title">
          <FormattedMessage id="profile.work" defaultMessage="Company and role" />
        </h2>
        <dl className="profile__facts">
          {memberships.length > 0 ? (
            memberships.map((membership) => (
              <Fact key={membership.id} term={membership.name}>
                {membership.roleTitles.join(', ')}
              </Fact>
            ))
          ) : (
            <Fact term={<FormattedMessage id="profile.company" defaultMessage="Company" />}>
              {user.company?.name ?? notGiven}
              <span className="profile__inline-link">
                <Link href={paths.companiesCreate}>
                  <FormattedMessage id="profile.addCompany" defaultMessage="Add a company" />
                </Link>
              </span>
            </Fact>
          )}
          {departmentName !== null && (
            <Fact term={<FormattedMessage id="profile.department" defaultMessage="Department" />}>{departmentName}</Fact>
          )}
          <Fact term={<FormattedMessage id="profile.role" defaultMessage="Role" />}>{roleTitle ?? user.role}</Fact>
          {mainGoalTitle !== null && (
            <Fact term={<FormattedMessage id="profile.mainGoal" defaultMessage="Main implementation goal" />}>{mainGoalTitle}</Fact>
          )}
          <Fact term={<FormattedMessage id="profile.username" defaultMessage="Login" />}>{user.username}</Fact>
          <Fact term={<FormattedMessage id="profile.account" defaultMessage="Account" />}>
            {user.active && user.enabled && user.accountNonLocked ? (
              <FormattedMessage id="profile.accountActive" defaultMessage="active" />
            ) : (
              <FormattedMessage id="profile.accountInactive" defaultMessage="blocked" />
            )}
          </Fact>
        </dl>
        {isAdmin && (
          <p className="profile__admin-link">
            <Link href={paths.profileAdmin}>
              <FormattedMessage id="profile.toAdmin" defaultMessage="Review verification payments" />
            </Link>
          </p>
        )}
      </div>

      <div className="profile__card">
        <h2 className="profile__card-title" id="profile-language">
          <FormattedMessage id="profile.language" defaultMessage="Interface language" />
        </h2>
        <div className="profile__languages" role="group" aria-labelledby="profile-language">
          <Button variant={locale === 'ru' ? 'primary' : 'secondary'} data-locale="ru" aria-pressed={locale === 'ru'} lang="ru" onClick={() => setLocale('ru')}>
            <FormattedMessage id="profile.language.ru" defaultMessage="Русский" />
          </Button>
          <Button variant={locale === 'en' ? 'primary' : 'secondary'} data-locale="en" aria-pressed={locale === 'en'} lang="en" onClick={() => setLocale('en')}>
            <FormattedMessage id="profile.language.en" defaultMessage="English" />
          </Button>
        </div>
      </div>

      <div className="profile__card">
        <h2 className="profile__card-title">
          <FormattedMessage id="profile.notifications.title" defaultMessage="Notifications" />
        </h2>
        <NotificationMailForm value={notificationMailOf(user)} onSave={updateNotificationMail} />
      </div>

      <div className="profile__card">
        <h2 className="profile__card-title">
          <FormattedMessage id="profile.password.title" defaultMessage="Password" />
        </h2>
        <PasswordForm onSubmit={changePassword} />
      </div>

      <div className="profile__actions">
        <Button
          variant="secondary"
          data-action="sign-out"
          loading={isSigningOut}
          onClick={() => {
            setSigningOut(true);
            // Sign-out always ends in a page load; only a "stay" in the unsent-work warning comes back here.
            void signOut().then((isSignedOut) => {
              if (!isSignedOut) setSigningOut(false);
            });
          }}
        >
          <FormattedMessage id="profile.signOut" defaultMessage="Sign out" />
        </Button>
      </div>
    </section>
  );
}
