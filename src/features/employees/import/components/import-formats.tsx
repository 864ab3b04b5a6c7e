import { FormattedMessage, useIntl } from 'react-intl';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from '../../../../domain/company';
import { Button } from '../../../../ui/button';
import type { TemplateFormat } from '../import-store';

export interface ImportFormatsProps {
  onDownload: (format: TemplateFormat) => void;
  /** The template format being downloaded, if any. */
  pending: TemplateFormat | null;
  problem: string | null;
  isOffline: boolean;
}

/** What files the import takes, and the template to start from (in the app's language). */
export function ImportFormats({ onDownload, pending, problem, isOffline }: ImportFormatsProps) {
  const intl = useIntl();
  return (
    <section className="import-section" aria-labelledby="import-formats-title" data-step="formats">
      <h2 className="import-section__title" id="import-formats-title">
        <FormattedMessage id="employees.import.formats.title" defaultMessage="Which files are accepted" />
      </h2>
      <ul className="import-formats__list">
        <li>
          <FormattedMessage
            id="employees.import.formats.csv"
            defaultMessage="<b>CSV</b> in UTF-8 or Windows-1251, with commas or semicolons between the values, as Excel and 1C save it."
            values={{ b: (chunks) => <strong>{chunks}</strong> }}
          />
        </li>
        <li>
          <FormattedMessage
            id="employees.import.formats.xlsx"
            defaultMessage="<b>XLSX</b> (an Excel workbook): the first sheet is read."
            values={{ b: (chunks) => <strong>{chunks}</strong> }}
          />
        </li>
        <li>
          <FormattedMessage
            id="employees.import.formats.headers"
            defaultMessage="The first row holds the column headers, in Russian or English. Last name and first name are required; middle name, position, e-mail, service number and department are optional."
          />
        </li>
        <li>
          <FormattedMessage
            id="employees.import.formats.limits"
            defaultMessage="Up to {size} MB and {rows, number} rows. Employees already in the list are found by service number, then by e-mail, and updated: importing a file again adds no duplicates. Departments are found by name; new names become new departments."
            values={{ size: IMPORT_MAX_BYTES / (1024 * 1024), rows: IMPORT_MAX_ROWS }}
          />
        </li>
      </ul>

      <div className="import-formats__template">
        <p className="import-section__text">
          <FormattedMessage
            id="employees.import.template.text"
            defaultMessage="Start from the template: its headers are in the language of the app (switch the app to the other language to get them in it)."
          />
        </p>
        {/* Each name holds the button's visible words (WCAG 2.5.3, label in name): voice control users say what they see. */}
        <div className="import-actions">
          <Button
            variant="secondary"
            loading={pending === 'xlsx'}
            disabled={isOffline || (pending !== null && pending !== 'xlsx')}
            onClick={() => onDownload('xlsx')}
            data-template="xlsx"
            aria-label={intl.formatMessage({ id: 'employees.import.template.xlsxLabel', defaultMessage: 'Download template XLSX' })}
          >
            <FormattedMessage id="employees.import.template.xlsx" defaultMessage="Template XLSX" />
          </Button>
          <Button
            variant="secondary"
            loading={pending === 'csv'}
            disabled={isOffline || (pending !== null && pending !== 'csv')}
            onClick={() => onDownload('csv')}
            data-template="csv"
            aria-label={intl.formatMessage({ id: 'employees.import.template.csvLabel', defaultMessage: 'Download template CSV' })}
          >
            <FormattedMessage id="employees.import.template.csv" defaultMessage="Template CSV" />
          </Button>
        </div>
        {problem !== null && (
          <p className="import-alert import-alert--error" role="alert">
            {problem}
          </p>
        )}
      </div>
    </section>
  );
}
