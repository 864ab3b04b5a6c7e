import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function VerificationPaymentCheckPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="companies.verificationPaymentCheck.title" defaultMessage="Payment under review" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="companies.verificationPaymentCheck.planned"
          defaultMessage="This page will show that you have reported the payment and that it is being reviewed; the review takes up to 5 days."
        />
      </p>
    </PlannedPage>
  );
}
