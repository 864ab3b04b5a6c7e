import { FormattedMessage } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import { PlannedPage } from '../../../ui/planned-page';

export default function RegistryPage() {
  return (
    <PlannedPage
      title={<FormattedMessage id="registry.list.title" defaultMessage="Project registry" />}
      back={
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      }
    >
      <p>
        <FormattedMessage
          id="registry.list.planned"
          defaultMessage="Approved projects gathered for the owner’s approval. The direction manager or the financial director sends the registry to the owner."
        />
      </p>
    </PlannedPage>
  );
}
