import { FormattedMessage } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { paths } from '../../../domain/paths';
import { CompanyForm } from '../components/company-form';
import { useCreateCompany, useIsOffline, useLogoUpload, useRegistrationPrefill } from '../hooks';
import '../companies.css';

export default function CompanyCreatePage() {
  const [, navigate] = useLocation();
  const create = useCreateCompany();
  const { upload, loadImage } = useLogoUpload();
  const isOffline = useIsOffline();
  const prefill = useRegistrationPrefill();

  return (
    <section className="companies-page" aria-labelledby="company-create-title">
      <p className="companies-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <h1 className="companies-page__title" id="company-create-title">
        <FormattedMessage id="companies.create.title" defaultMessage="Add a company" />
      </h1>
      <p className="companies-page__lead">
        <FormattedMessage
          id="companies.create.lead"
          defaultMessage="You become the company's owner. Next you verify it by paying the invoice and set up its departments and staff."
        />
      </p>
      {prefill && (
        <p className="companies-page__note" data-state="from-registration">
          <FormattedMessage
            id="companies.form.fromRegistration"
            defaultMessage="The name and taxpayer number are taken from your registration: check them before sending."
          />
        </p>
      )}
      {isOffline && (
        <p className="companies-page__warning" role="status" data-state="offline">
          <FormattedMessage
            id="companies.create.offline"
            defaultMessage="You are offline. Adding a company needs a connection: your entries stay here, send them when you are back online."
          />
        </p>
      )}
      <CompanyForm
        upload={upload}
        loadImage={loadImage}
        prefill={prefill}
        onSubmit={async (input) => {
          const company = await create(input);
          navigate(`${paths.companiesCreated}?${new URLSearchParams({ companyId: company.id }).toString()}`);
        }}
      />
    </section>
  );
}
