import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function RegistrySuccessPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="registry.sendSuccess.title" defaultMessage="Registry sent" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="registry.sendSuccess.planned"
          defaultMessage="After the registry is sent to the owner, this page will confirm it."
        />
      </p>
    </PlannedPage>
  );
}
