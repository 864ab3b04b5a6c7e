import { FormattedMessage } from 'react-intl';
import './pwa-update.css';

export interface PwaUpdateBannerProps {
  onUpdate: () => void;
  onLater: () => void;
}

/** The offer of a new version: a small banner at the bottom, polite to screen readers, never modal. */
export function PwaUpdateBanner({ onUpdate, onLater }: PwaUpdateBannerProps) {
  return (
    <div className="pwa-update" role="status" aria-live="polite" data-pwa="update">
      <p className="pwa-update__text">
        <FormattedMessage id="pwa.update.available" defaultMessage="A new version is available" />
      </p>
      <div className="pwa-update__actions">
        <button type="button" className="pwa-update__button" onClick={onLater}>
          <FormattedMessage id="pwa.update.later" defaultMessage="Later" />
        </button>
        <button
          type="button"
          className="pwa-update__button pwa-update__button--primary"
          data-action="pwa-update"
          onClick={onUpdate}
        >
          <FormattedMessage id="pwa.update.apply" defaultMessage="Update" />
        </button>
      </div>
    </div>
  );
}
