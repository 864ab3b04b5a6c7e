import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useParams } from 'wouter';
import { VERIFICATION_REVIEW_DAYS } from '../../../domain/company';
import { paths } from '../../../domain/paths';
import { Button } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { CompanyDetails } from '../components/company-details';
import { CompanyMissing } from '../components/company-missing';
import { useCan, useCompany, useReportPayment } from '../hooks';
import { companyMoment } from '../time-zone';
import { reviewDueAt, verificationStatusOf } from '../verification';
import '../companies.css';

/**
 * The state of the company's verification after "I paid", live from the mirror: the pull brings the admin's
 * decision, and this screen follows it without a reload.
 */
export default function VerificationPaymentCheckPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const company = useCompany(companyId);
  const canReport = useCan(companyId, 'company.reportPayment');
  const report = useReportPayment(companyId);
  const [isReporting, setReporting] = useState(false);

  if (company === undefined) return <PageSpinner />;
  if (company === null) return <CompanyMissing />;

  const status = verificationStatusOf(company);
  const dueAt = reviewDueAt(company.paymentReportedAt);
  const toInvoice = (
    <Link href={paths.company.verificationPayment(companyId)} data-action="to-invoice">
      <FormattedMessage id="companies.check.toInvoice" defaultMessage="Back to the invoice" />
    </Link>
  );

  return (
    <section className="companies-page" aria-labelledby="verification-check-title" data-status={status}>
      <p className="companies-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>

      {status === 'PAYMENT_REPORTED' && (
        <>
          <h1 className="companies-page__title" id="verification-check-title">
            <FormattedMessage id="companies.verificationPaymentCheck.title" defaultMessage="Payment under review" />
          </h1>
          <p className="companies-page__lead">
            <FormattedMessage
              id="companies.check.reviewText"
              defaultMessage="Thank you! The platform checks that the payment has arrived. The review takes up to {days} days; you will see the result here and get an e-mail."
              values={{ days: VERIFICATION_REVIEW_DAYS }}
            />
          </p>
          <dl className="company-details companies-card">
            {company.paymentReportedAt && (
              <>
                <dt>
                  <FormattedMessage id="companies.check.reportedAt" defaultMessage="Payment reported" />
                </dt>
                <dd data-field="paymentReportedAt">{companyMoment(company, company.paymentReportedAt)}</dd>
              </>
            )}
            {dueAt && (
              <>
                <dt>
                  <FormattedMessage id="companies.check.dueAt" defaultMessage="Review due by" />
                </dt>
                <dd data-field="reviewDueAt">{companyMoment(company, dueAt)}</dd>
              </>
            )}
          </dl>
        </>
      )}

      {status === 'VERIFIED' && (
        <>
          <h1 className="companies-page__title" id="verification-check-title">
            <FormattedMessage id="companies.check.verifiedTitle" defaultMessage="The company is verified" />
          </h1>
          <p className="companies-page__success">
            {company.verificationDecidedAt ? (
              <FormattedMessage
                id="companies.check.verifiedAt"
                defaultMessage="The payment was confirmed on {date}."
                values={{ date: <span data-field="verificationDecidedAt">{companyMoment(company, company.verificationDecidedAt)}</span> }}
              />
            ) : (
              <FormattedMessage id="companies.check.verifiedText" defaultMessage="The payment was confirmed." />
            )}
          </p>
          <p className="companies-page__links">
            <Link href={paths.company.departments(companyId)}>
              <FormattedMessage id="companies.created.step.departmentsLink" defaultMessage="Departments" />
            </Link>
            <Link href={paths.company.employees(companyId)}>
              <FormattedMessage id="companies.created.step.employeesLink" defaultMessage="Employees" />
            </Link>
          </p>
        </>
      )}

      {status === 'REJECTED' && (
        <>
          <h1 className="companies-page__title" id="verification-check-title">
            <FormattedMessage id="companies.check.rejectedTitle" defaultMessage="The payment was not confirmed" />
          </h1>
          <div className="companies-page__warning">
            <p>
              <FormattedMessage
                id="companies.verificationPayment.rejected"
                defaultMessage="The platform could not confirm your payment. Check it with your bank and report it again."
              />
            </p>
            {company.verificationComment && (
              <p data-field="verificationComment">
                <FormattedMessage
                  id="companies.verificationPayment.adminComment"
                  defaultMessage="The administrator's comment: {comment}"
                  values={{ comment: company.verificationComment }}
                />
              </p>
            )}
          </div>
          <div className="companies-page__actions">
            {canReport && (
              <Button
                data-action="report-payment"
                loading={isReporting}
                onClick={() => {
                  setReporting(true);
                  void report().finally(() => setReporting(false));
                }}
              >
                <FormattedMessage id="companies.check.reportAgain" defaultMessage="I paid: report again" />
              </Button>
            )}
            {toInvoice}
          </div>
        </>
      )}

      {status === 'UNVERIFIED' && (
        <>
          <h1 className="companies-page__title" id="verification-check-title">
            <FormattedMessage id="companies.check.unverifiedTitle" defaultMessage="The payment has not been reported yet" />
          </h1>
          <p className="companies-page__lead">
            <FormattedMessage
              id="companies.check.unverifiedText"
              defaultMessage="Download the invoice, pay it and press “I paid”: the review starts then and takes up to 5 days."
            />
          </p>
          <p>{toInvoice}</p>
        </>
      )}

      <div className="companies-card">
        <CompanyDetails company={company} withPayment />
      </div>
    </section>
  );
}
