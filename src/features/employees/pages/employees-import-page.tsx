import { FormattedMessage } from 'react-intl';
import { Link, useLocation, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { ImportFileField } from '../import/components/import-file-field';
import { ImportFormats } from '../import/components/import-formats';
import { ImportMapping } from '../import/components/import-mapping';
import { ImportProgress } from '../import/components/import-progress';
import { useImportAccess, useImportFlow, useLeaveGuard, useTemplateDownload } from '../import/import-hooks';
import { isMappingComplete } from '../import/mapping';
import '../import/import.css';

export default function EmployeesImportPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const { isMember, canImport } = useImportAccess(companyId);

  return (
    <section className="import-page" aria-labelledby="employees-import-title">
      <p className="import-page__back">
        <Link href={paths.company.employees(companyId)}>
          <FormattedMessage id="employees.import.backToList" defaultMessage="Employees" />
        </Link>
      </p>
      <h1 className="import-page__title" id="employees-import-title">
        <FormattedMessage id="employees.import.title" defaultMessage="Import employees" />
      </h1>
      {canImport ? (
        <ImportScreen companyId={companyId} />
      ) : (
        <p className="import-alert import-alert--warning" role="alert" data-problem="forbidden">
          {isMember ? (
            <FormattedMessage
              id="employees.import.forbidden"
              defaultMessage="Only HR, the owner and the CEO of the company can import employees. Ask one of them to import the file or to give you the HR role."
            />
          ) : (
            <FormattedMessage id="employees.import.notMember" defaultMessage="You are not a member of this company, so you cannot import its employees." />
          )}
        </p>
      )}
    </section>
  );
}

function ImportScreen({ companyId }: { companyId: string }) {
  const [, navigate] = useLocation();
  const flow = useImportFlow(companyId);
  const template = useTemplateDownload(companyId);
  const isImporting = flow.busy?.action === 'import';
  useLeaveGuard(isImporting);
  const canImport = flow.preview !== null && isMappingComplete(flow.mapping) && flow.busy === null && !flow.isOffline;

  return (
    <div className="import-steps" data-busy={flow.busy?.action ?? 'none'}>
      {flow.isOffline && (
        <p className="import-alert import-alert--warning" role="status" data-problem="offline">
          <FormattedMessage
            id="employees.import.offline"
            defaultMessage="You are offline. Importing needs a connection to the server: you can choose the file now, it stays here, and the file is read as soon as the connection is back."
          />
        </p>
      )}

      <ImportFormats onDownload={(format) => void template.download(format)} pending={template.pending} problem={template.problem} isOffline={flow.isOffline} />

      <ImportFileField file={flow.file} onChoose={flow.choose} disabled={isImporting} />

      {flow.problem !== null && (
        <div className="import-alert import-alert--error" role="alert" data-problem="refused">
          <p className="import-alert__text">{flow.problem}</p>
          {flow.isRetryable && flow.file !== null && flow.preview === null && flow.busy === null && !flow.isOffline && (
            <Button variant="secondary" onClick={flow.check}>
              <FormattedMessage id="employees.import.retryCheck" defaultMessage="Read the file again" />
            </Button>
          )}
        </div>
      )}

      {flow.busy?.action === 'check' && <ImportProgress action="check" progress={flow.busy.progress} />}

      {flow.preview !== null && (
        <>
          <ImportMapping preview={flow.preview} mapping={flow.mapping} onChange={flow.setColumnField} disabled={flow.busy !== null} />
          <div className="import-submit">
            <Button
              onClick={() => {
                void flow.runImport().then((report) => {
                  if (report) navigate(`${paths.company.employeesImportReport(companyId)}?${new URLSearchParams({ importId: report.id }).toString()}`);
                });
              }}
              disabled={!canImport}
              loading={isImporting}
              data-action="import"
            >
              <FormattedMessage
                id="employees.import.submit"
                defaultMessage="Import {rows, plural, one {# row} other {# rows}}"
                values={{ rows: flow.preview.totalRows }}
              />
            </Button>
            {flow.busy?.action === 'import' && <ImportProgress action="import" progress={flow.busy.progress} rows={flow.preview.totalRows} />}
          </div>
        </>
      )}
    </div>
  );
}
