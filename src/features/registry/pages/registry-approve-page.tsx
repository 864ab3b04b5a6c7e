import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function RegistryApprovePage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="registry.approve.title" defaultMessage="Approve the registry" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="registry.approve.planned"
          defaultMessage="Here the owner will go through the registry, adjust the final cost of each project if needed and approve it."
        />
      </p>
    </PlannedPage>
  );
}
