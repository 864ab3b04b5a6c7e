import { FormattedMessage, useIntl } from 'react-intl';
import { Spinner } from '../../../../ui/spinner';
import type { UploadProgress } from '../import-store';

export interface ImportProgressProps {
  action: 'check' | 'import';
  progress: UploadProgress;
  /** Rows of the file, when the preview has counted them. */
  rows?: number;
}

/**
 * Where a running import is: a progress bar while the file goes up, then a spinner while the server reads it
 * and writes the employees (it answers only when all of it is done).
 */
export function ImportProgress({ action, progress, rows }: ImportProgressProps) {
  const intl = useIntl();
  const isUploading = progress.stage === 'uploading';
  const percent = isUploading ? Math.round(progress.fraction * 100) : 100;
  const label =
    action === 'check'
      ? intl.formatMessage({ id: 'employees.import.progress.checkLabel', defaultMessage: 'Reading the file' })
      : intl.formatMessage({ id: 'employees.import.progress.importLabel', defaultMessage: 'Importing the file' });

  return (
    <div className="import-progress" data-progress={progress.stage} aria-live="polite">
      {isUploading ? (
        <>
          <div className="import-progress__bar" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <span className="import-progress__fill" style={{ width: `${percent}%` }} />
          </div>
          <p className="import-progress__text">
            <FormattedMessage id="employees.import.progress.uploading" defaultMessage="Sending the file: {percent}%" values={{ percent }} />
          </p>
        </>
      ) : (
        <p className="import-progress__text import-progress__text--processing">
          <Spinner size="small" decorative />
          {action === 'check' ? (
            <FormattedMessage id="employees.import.progress.checking" defaultMessage="Reading the columns of the file…" />
          ) : rows !== undefined ? (
            <FormattedMessage
              id="employees.import.progress.processingRows"
              defaultMessage="Processing {rows, plural, one {# row} other {# rows}}. This can take a minute for a large file: please stay on this page."
              values={{ rows }}
            />
          ) : (
            <FormattedMessage id="employees.import.progress.processing" defaultMessage="Processing the file. Please stay on this page." />
          )}
        </p>
      )}
    </div>
  );
}
