import type { ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { Link } from 'wouter';
import type { ImportReport, ImportRowError } from '../../../../domain/company';
import { genderOfFullName } from '../../../../domain/name-gender';
import { paths } from '../../../../domain/paths';
import { Button, buttonClassName } from '../../../../ui/button';
import { VirtualList } from './virtual-list';

type ImportedRow = ImportReport['imported'][number];

export interface ImportReportViewProps {
  report: ImportReport;
  /** Saves the rejected rows as a CSV file (offered when some rows were rejected). */
  onDownloadRejected: () => void;
  /** The last download could not start (its CSV writer did not load). */
  downloadFailed?: boolean;
}

function Count({ name, value, label, tone }: { name: string; value: number; label: ReactNode; tone?: 'good' | 'bad' }) {
  return (
    <div className={['import-count', tone ? `import-count--${tone}` : ''].filter(Boolean).join(' ')} data-count={name}>
      <dt className="import-count__label">{label}</dt>
      <dd className="import-count__value">
        <FormattedNumber value={value} />
      </dd>
    </div>
  );
}

/** What happened to a row; in Russian the words agree with the person's gender, read from the name. */
function ActionText({ action, fullName }: { action: ImportedRow['action']; fullName: string }) {
  const gender = genderOfFullName(fullName);
  switch (action) {
    case 'created':
      return <FormattedMessage id="employees.importReport.action.created" defaultMessage="added" values={{ gender }} />;
    case 'updated':
      return <FormattedMessage id="employees.importReport.action.updated" defaultMessage="updated" values={{ gender }} />;
    case 'unchanged':
      return <FormattedMessage id="employees.importReport.action.unchanged" defaultMessage="no changes" />;
  }
}

function RejectedRow({ row }: { row: ImportRowError }) {
  const values = row.values.filter((value) => value.trim() !== '');
  return (
    <div className="import-row import-row--rejected" data-row={row.row}>
      <p className="import-row__head">
        <span className="import-row__number">
          <FormattedMessage id="employees.importReport.rowNumber" defaultMessage="Row {row}" values={{ row: row.row }} />
        </span>
        <span className="import-row__reason" data-code={row.code}>
          {row.message}
        </span>
      </p>
      <p className="import-row__values">
        {values.length > 0 ? values.join(' · ') : <FormattedMessage id="employees.importReport.emptyRow" defaultMessage="(all cells empty)" />}
      </p>
    </div>
  );
}

/** The result of one import (spec section 4: imported or with errors), its counts, and every row's fate. */
export function ImportReportView({ report, onDownloadRejected, downloadFailed = false }: ImportReportViewProps) {
  const intl = useIntl();
  const importedCount = report.created + report.updated + report.unchanged;
  const hasRejected = report.rejected.length > 0;
  const rejected = [...report.rejected].sort((a, b) => a.row - b.row);
  const imported = [...report.imported].sort((a, b) => a.row - b.row);

  return (
    <div className="import-report" data-result={report.result}>
      <div className={`import-report__result import-report__result--${report.result}`} role="status">
        <p className="import-report__headline">
          {report.result === 'imported' ? (
            <FormattedMessage id="employees.importReport.result.imported" defaultMessage="Imported" />
          ) : (
            <FormattedMessage id="employees.importReport.result.withErrors" defaultMessage="Imported with errors" />
          )}
        </p>
        <p className="import-report__summary">
          <FormattedMessage
            id="employees.importReport.summary"
            defaultMessage="{imported, plural, one {# row of {total} imported} other {# rows of {total} imported}}{rejected, plural, =0 {.} one {, # rejected.} other {, # rejected.}}"
            values={{ imported: importedCount, total: report.totalRows, rejected: report.rejected.length }}
          />
        </p>
        <p className="import-report__file">
          <FormattedMessage
            id="employees.importReport.file"
            defaultMessage="File “{fileName}”, {date}"
            values={{
              fileName: report.fileName,
              date: <FormattedDate value={report.createdAt} dateStyle="medium" timeStyle="short" />,
            }}
          />
        </p>
      </div>

      <dl className="import-report__counts">
        <Count name="imported" value={importedCount} tone="good" label={<FormattedMessage id="employees.importReport.count.imported" defaultMessage="Imported" />} />
        <Count name="created" value={report.created} label={<FormattedMessage id="employees.importReport.count.created" defaultMessage="Added" />} />
        <Count name="updated" value={report.updated} label={<FormattedMessage id="employees.importReport.count.updated" defaultMessage="Updated" />} />
        <Count name="unchanged" value={report.unchanged} label={<FormattedMessage id="employees.importReport.count.unchanged" defaultMessage="Unchanged" />} />
        <Count
          name="rejected"
          value={report.rejected.length}
          tone={hasRejected ? 'bad' : undefined}
          label={<FormattedMessage id="employees.importReport.count.rejected" defaultMessage="Rejected" />}
        />
      </dl>

      <div className="import-actions">
        <Link href={paths.company.employees(report.companyId)} className={buttonClassName('primary')}>
          <FormattedMessage id="employees.importReport.toList" defaultMessage="To the employees" />
        </Link>
        <Link href={paths.company.employeesImport(report.companyId)} className={buttonClassName('secondary')}>
          <FormattedMessage id="employees.importReport.again" defaultMessage="Import another file" />
        </Link>
      </div>

      {hasRejected && (
        <section className="import-section" aria-labelledby="import-rejected-title" data-section="rejected">
          <h2 className="import-section__title" id="import-rejected-title">
            <FormattedMessage
              id="employees.importReport.rejected.title"
              defaultMessage="Rejected rows ({count, number})"
              values={{ count: report.rejected.length }}
            />
          </h2>
          <p className="import-section__text">
            <FormattedMessage
              id="employees.importReport.rejected.text"
              defaultMessage="These rows were not imported. Fix them in the file (or in the CSV below) and import it again: rows already imported are found and not added twice."
            />
          </p>
          <div className="import-actions">
            <Button variant="secondary" onClick={onDownloadRejected} data-action="download-rejected">
              <FormattedMessage id="employees.importReport.rejected.download" defaultMessage="Download rejected rows (CSV)" />
            </Button>
          </div>
          {downloadFailed && (
            <p className="import-alert import-alert--warning" role="alert" data-problem="download">
              <FormattedMessage
                id="employees.importReport.rejected.downloadFailed"
                defaultMessage="The file could not be prepared: part of the app did not load. Check the connection and try again."
              />
            </p>
          )}
          <VirtualList
            items={rejected}
            itemKey={(row) => row.row}
            label={intl.formatMessage({ id: 'employees.importReport.rejected.listLabel', defaultMessage: 'Rejected rows' })}
            estimateSize={80}
            renderItem={(row) => <RejectedRow row={row} />}
          />
        </section>
      )}

      {imported.length > 0 && (
        <section className="import-section" aria-labelledby="import-imported-title" data-section="imported">
          <h2 className="import-section__title" id="import-imported-title">
            <FormattedMessage id="employees.importReport.imported.title" defaultMessage="Imported rows ({count, number})" values={{ count: imported.length }} />
          </h2>
          <VirtualList
            items={imported}
            itemKey={(row) => row.row}
            label={intl.formatMessage({ id: 'employees.importReport.imported.listLabel', defaultMessage: 'Imported rows' })}
            estimateSize={52}
            renderItem={(row) => (
              <div className="import-row" data-row={row.row} data-action={row.action}>
                <span className="import-row__number">
                  <FormattedMessage id="employees.importReport.rowNumber" defaultMessage="Row {row}" values={{ row: row.row }} />
                </span>
                <Link href={paths.company.employee(report.companyId, row.employeeId)} className="import-row__name">
                  {row.fullName}
                </Link>
                <span className={`import-row__action import-row__action--${row.action}`}>
                  <ActionText action={row.action} fullName={row.fullName} />
                </span>
              </div>
            )}
          />
        </section>
      )}
    </div>
  );
}
