import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import './planned-page.css';

export interface PlannedPageProps {
  /** The screen's own title. */
  title: ReactNode;
  /** One or two plain sentences on what the screen will do. */
  children: ReactNode;
  /** The way back, e.g. a router link to the dashboard. */
  back: ReactNode;
}

/**
 * A screen whose feature arrives in a later release. It says plainly what will be here and offers
 * the way back; it shows no controls that would pretend to work.
 */
export function PlannedPage({ title, children, back }: PlannedPageProps) {
  return (
    <section className="planned-page" aria-labelledby="planned-page-title">
      <p className="planned-page__badge">
        <FormattedMessage id="planned.badge" defaultMessage="Coming in a later release" />
      </p>
      <h1 className="planned-page__title" id="planned-page-title">
        {title}
      </h1>
      <div className="planned-page__text">{children}</div>
      <div className="planned-page__back">{back}</div>
    </section>
  );
}
