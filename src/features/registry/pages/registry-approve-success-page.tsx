import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function RegistryApproveSuccessPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="registry.approveSuccess.title" defaultMessage="Registry approved" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="registry.approveSuccess.planned"
          defaultMessage="After the owner approves a registry, this page will confirm it."
        />
      </p>
    </PlannedPage>
  );
}
