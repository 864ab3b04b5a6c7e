// What the device's data layer must tell the user and cannot fix alone (DESIGN.md, "Offline-first data
// flow"): a pull that could not store its rows (the device is out of storage) or failed for another reason,
// and a newer version of the app open in another tab, which has closed this tab's database. Loaded lazily
// with the first signed-in screen, like the rest of the data layer.
import { useEffect, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { onDatabaseVersionChange } from '../lib/db/database';
import { useSyncProblem } from '../lib/sync/use-sync-problem';
import './device-notices.css';

export function DeviceNotices({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const problem = useSyncProblem();
  const [isOutdated, setOutdated] = useState(false);
  useEffect(() => onDatabaseVersionChange(() => setOutdated(true)), []);

  if (isOutdated) {
    return (
      <div className="device-notice device-notice--blocking" role="alert" data-notice="database-version">
        <p className="device-notice__text">
          <FormattedMessage
            id="device.newerVersion.text"
            defaultMessage="A newer version of the app is open in another tab. Reload this one to go on; nothing unsent is lost."
          />
        </p>
        <button type="button" className="device-notice__button" onClick={reload}>
          <FormattedMessage id="device.newerVersion.reload" defaultMessage="Reload" />
        </button>
      </div>
    );
  }
  if (!problem) return null;
  return (
    <div className="device-notice" role="status" aria-live="polite" data-notice={`sync-${problem.kind}`}>
      <p className="device-notice__text">
        {problem.kind === 'quota' ? (
          <FormattedMessage
            id="sync.problem.quota"
            defaultMessage="The device is out of storage: new data from the server cannot be saved. Free some space; unsent changes are kept."
          />
        ) : (
          <FormattedMessage id="sync.problem.failed" defaultMessage="Could not update the data from the server. We will try again." />
        )}
      </p>
    </div>
  );
}
