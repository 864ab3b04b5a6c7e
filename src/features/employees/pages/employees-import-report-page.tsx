import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { ImportReportView } from '../import/components/import-report-view';
import { useImportAccess, useImportReport, useRejectedRowsDownload } from '../import/import-hooks';
import '../import/import.css';

export default function EmployeesImportReportPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const importId = new URLSearchParams(useSearch()).get('importId') ?? '';
  const { canImport } = useImportAccess(companyId);

  return (
    <section className="import-page" aria-labelledby="employees-import-report-title">
      <p className="import-page__back">
        <Link href={paths.company.employees(companyId)}>
          <FormattedMessage id="employees.import.backToList" defaultMessage="Employees" />
        </Link>
      </p>
      <h1 className="import-page__title" id="employees-import-report-title">
        <FormattedMessage id="employees.importReport.title" defaultMessage="Import report" />
      </h1>
      {!canImport ? (
        <p className="import-alert import-alert--warning" role="alert" data-problem="forbidden">
          <FormattedMessage id="employees.importReport.forbidden" defaultMessage="Only HR, the owner and the CEO of the company can see import reports." />
        </p>
      ) : importId === '' ? (
        <NoReport companyId={companyId} />
      ) : (
        <ReportLoader companyId={companyId} importId={importId} />
      )}
    </section>
  );
}

function NoReport({ companyId }: { companyId: string }) {
  return (
    <p className="import-alert import-alert--warning" role="alert">
      <FormattedMessage
        id="employees.importReport.noImport"
        defaultMessage="No import was named. <link>Import a file</link> to see its report here."
        values={{ link: (chunks) => <Link href={paths.company.employeesImport(companyId)}>{chunks}</Link> }}
      />
    </p>
  );
}

function ReportLoader({ companyId, importId }: { companyId: string; importId: string }) {
  const state = useImportReport(companyId, importId);
  const rejectedCsv = useRejectedRowsDownload(state.kind === 'ready' ? state.report : null, state.kind === 'ready' ? state.headers : null);

  switch (state.kind) {
    case 'loading':
      return <PageSpinner />;
    case 'ready':
      return <ImportReportView report={state.report} onDownloadRejected={rejectedCsv.download} downloadFailed={rejectedCsv.failed} />;
    case 'offline':
      return (
        <p className="import-alert import-alert--warning" role="status" data-problem="offline">
          <FormattedMessage
            id="employees.importReport.offline"
            defaultMessage="You are offline and this report is not kept on this device. It will show as soon as the connection is back."
          />
        </p>
      );
    case 'failed':
      return (
        <p className="import-alert import-alert--error" role="alert" data-problem="failed">
          {state.message}
        </p>
      );
  }
}
