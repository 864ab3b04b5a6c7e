import { useId } from 'react';
import { FormattedMessage, FormattedNumber } from 'react-intl';
import { IMPORT_ACCEPT } from '../import-hooks';

export interface ImportFileFieldProps {
  file: File | null;
  onChoose: (file: File | null) => void;
  disabled?: boolean;
}

/** Size in KB or MB, as a person reads it. */
function FileSize({ bytes }: { bytes: number }) {
  if (bytes < 1024 * 1024) {
    return <FormattedNumber value={Math.max(1, Math.round(bytes / 1024))} style="unit" unit="kilobyte" unitDisplay="short" />;
  }
  return <FormattedNumber value={bytes / (1024 * 1024)} style="unit" unit="megabyte" unitDisplay="short" maximumFractionDigits={1} />;
}

/**
 * The spreadsheet picker: the browser's own file input (CSV and XLSX only), shown as a button, with the name
 * and size of the chosen file. The choice stays until another file is chosen, offline too.
 */
export function ImportFileField({ file, onChoose, disabled = false }: ImportFileFieldProps) {
  const inputId = useId();
  return (
    <section className="import-section" aria-labelledby={`${inputId}-title`} data-step="file">
      <h2 className="import-section__title" id={`${inputId}-title`}>
        <FormattedMessage id="employees.import.file.title" defaultMessage="Choose the file" />
      </h2>
      <div className={['import-file', disabled ? 'import-file--disabled' : ''].filter(Boolean).join(' ')}>
        <input
          id={inputId}
          className="import-file__input visually-hidden"
          type="file"
          name="file"
          accept={IMPORT_ACCEPT}
          disabled={disabled}
          onChange={(event) => {
            const chosen = event.currentTarget.files?.[0] ?? null;
            // Cleared so that choosing the same file again (after fixing it) still reports a change.
            event.currentTarget.value = '';
            if (chosen) onChoose(chosen);
          }}
        />
        <label htmlFor={inputId} className="button button--secondary import-file__button">
          {file ? (
            <FormattedMessage id="employees.import.file.change" defaultMessage="Choose another file" />
          ) : (
            <FormattedMessage id="employees.import.file.choose" defaultMessage="Choose a CSV or XLSX file" />
          )}
        </label>
        {file ? (
          <p className="import-file__chosen" data-file-name={file.name}>
            <span className="import-file__name">{file.name}</span>
            <span className="import-file__size">
              <FileSize bytes={file.size} />
            </span>
          </p>
        ) : (
          <p className="import-file__chosen import-file__chosen--none">
            <FormattedMessage id="employees.import.file.none" defaultMessage="No file chosen yet" />
          </p>
        )}
      </div>
    </section>
  );
}
