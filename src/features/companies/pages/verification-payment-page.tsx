import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useLocation, useParams } from 'wouter';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { CompanyDetails } from '../components/company-details';
import { CompanyMissing } from '../components/company-missing';
import { useCan, useCompany, useDownloadInvoice, useIsOffline, useReportPayment } from '../hooks';
import { companyMoment } from '../time-zone';
import { canReportPaymentIn, reviewDueAt, verificationStatusOf } from '../verification';
import '../companies.css';

/** The verification invoice: the company's details and the amount, "Download invoice" and "I paid". */
export default function VerificationPaymentPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const [, navigate] = useLocation();
  const company = useCompany(companyId);
  const canDownload = useCan(companyId, 'company.invoice');
  const canReport = useCan(companyId, 'company.reportPayment');
  const isOffline = useIsOffline();
  const download = useDownloadInvoice(companyId, company?.invoiceNumber);
  const report = useReportPayment(companyId);
  const [busy, setBusy] = useState<'download' | 'report' | null>(null);

  if (company === undefined) return <PageSpinner />;
  if (company === null) return <CompanyMissing />;

  const status = verificationStatusOf(company);
  const dueAt = reviewDueAt(company.paymentReportedAt);
  const run = (what: 'download' | 'report', action: () => Promise<void>) => {
    setBusy(what);
    void action().finally(() => setBusy(null));
  };

  return (
    <section className="companies-page" aria-labelledby="verification-payment-title" data-status={status}>
      <p className="companies-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <h1 className="companies-page__title" id="verification-payment-title">
        <FormattedMessage id="companies.verificationPayment.title" defaultMessage="Company verification" />
      </h1>
      {canReportPaymentIn(status) && (
        <p className="companies-page__lead">
          <FormattedMessage
            id="companies.verificationPayment.lead"
            defaultMessage="Verification confirms that the company is real. Pay the invoice from the company's bank account with the invoice number as the payment reference, then press “I paid”. The platform checks the payment within 5 days."
          />
        </p>
      )}
      {isOffline && (
        <p className="companies-page__warning" role="status" data-state="offline">
          <FormattedMessage
            id="companies.verificationPayment.offlineNote"
            defaultMessage="You are offline: the details below are from this device. Downloading the invoice and reporting the payment need a connection."
          />
        </p>
      )}

      <div className="companies-card">
        <CompanyDetails company={company} withPayment />
      </div>

      {status === 'PAYMENT_REPORTED' && (
        <p className="companies-page__note companies-page__links" data-state="reported">
          {dueAt ? (
            <FormattedMessage
              id="companies.verificationPayment.reported"
              defaultMessage="You reported the payment. The review is due by {date}."
              values={{ date: <span data-field="reviewDueAt">{companyMoment(company, dueAt)}</span> }}
            />
          ) : (
            <FormattedMessage id="companies.verificationPayment.reportedNoDate" defaultMessage="You reported the payment; it is being reviewed." />
          )}
          <Link href={paths.company.verificationPaymentCheck(companyId)}>
            <FormattedMessage id="companies.verificationPayment.toCheck" defaultMessage="See the review" />
          </Link>
        </p>
      )}
      {status === 'VERIFIED' && (
        <p className="companies-page__success" data-state="verified">
          <FormattedMessage id="companies.verificationPayment.verified" defaultMessage="The company is verified. Nothing more to pay." />
        </p>
      )}
      {status === 'REJECTED' && (
        <div className="companies-page__warning" data-state="rejected">
          <p>
            <FormattedMessage
              id="companies.verificationPayment.rejected"
              defaultMessage="The platform could not confirm your payment. Check it with your bank and report it again."
            />
          </p>
          {company.verificationComment && (
            <p>
              <FormattedMessage
                id="companies.verificationPayment.adminComment"
                defaultMessage="The administrator's comment: {comment}"
                values={{ comment: company.verificationComment }}
              />
            </p>
          )}
        </div>
      )}

      <div className="companies-page__actions">
        {canDownload && (
          <Button variant="secondary" data-action="download-invoice" loading={busy === 'download'} onClick={() => run('download', download)}>
            <FormattedMessage id="companies.verificationPayment.download" defaultMessage="Download invoice" />
          </Button>
        )}
        {canReport && canReportPaymentIn(status) && (
          <Button
            data-action="report-payment"
            loading={busy === 'report'}
            onClick={() =>
              run('report', async () => {
                if (await report()) navigate(paths.company.verificationPaymentCheck(companyId));
              })
            }
          >
            <FormattedMessage id="companies.verificationPayment.iPaid" defaultMessage="I paid" />
          </Button>
        )}
      </div>
      {!canReport && canReportPaymentIn(status) && (
        <p className="companies-page__note">
          <FormattedMessage id="companies.verificationPayment.ownerOnly" defaultMessage="Only an owner of the company can report the payment." />
        </p>
      )}
    </section>
  );
}
