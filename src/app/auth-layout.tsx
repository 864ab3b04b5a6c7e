import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { LanguageSwitch } from './language-switch';
import './auth-layout.css';

/** Sign-in, registration and recovery: the logo (unless `noLogo`), a language switch and a centred card. */
export function AuthLayout({ noLogo = false, children }: { noLogo?: boolean; children: ReactNode }) {
  const intl = useIntl();
  return (
    <div className="auth-layout" data-layout="auth">
      <div className="auth-layout__bar">
        <LanguageSwitch />
      </div>
      <div className="auth-layout__body">
        {!noLogo && (
          <div className="auth-layout__logo" data-logo="">
            <img src="/favicon.svg" alt={intl.formatMessage({ id: 'nav.logoAlt', defaultMessage: 'Improvement platform logo' })} width="48" height="48" />
            <span className="auth-layout__product">{intl.formatMessage({ id: 'nav.productName', defaultMessage: 'Improvement platform' })}</span>
          </div>
        )}
        <main className="auth-layout__card" id="main">
          {children}
        </main>
      </div>
    </div>
  );
}
