import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function VerificationPaymentPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="companies.verificationPayment.title" defaultMessage="Company verification" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="companies.verificationPayment.planned"
          defaultMessage="Here you will download the invoice for verifying the company and, once it is paid, press “I paid”. The payment is reviewed within 5 days."
        />
      </p>
    </PlannedPage>
  );
}
