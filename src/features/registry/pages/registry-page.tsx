import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { PageSpinner } from '../../../ui/spinner';
import { OpenRegistrySection } from '../components/open-registry';
import { PastRegistry } from '../components/past-registry';
import { SentState, numberValues } from '../components/registry-parts';
import { useIsOffline, useMemberRoles, useRegistryOverview, useRegistryView } from '../hooks';
import '../registry.css';

/** After the owner returned a registry (`?returned=<id>`): what happened, and whether the server has it yet. */
function ReturnedNotice({ companyId, registryId }: { companyId: string; registryId: string }) {
  const view = useRegistryView(companyId, registryId);
  if (!view || view.registry.status !== 'RETURNED') return null;
  return (
    <div className="registry-notice" role="status" data-notice="returned">
      <p>
        <FormattedMessage
          id="registry.returned.notice"
          defaultMessage="Registry{hasNumber, select, yes { No. {number}} other {}} is returned with your comment. Its projects are back in the open registry; the sender will be told."
          values={numberValues(view.registry.number)}
        />
      </p>
      <SentState unsent={view.unsent} />
    </div>
  );
}

/**
 * The company's registry (spec section 2), read from the device's mirror only (works offline): the open registry
 * with "Send to the owner" for the direction manager and the financial director, then the sent registries, newest
 * first, with their downloads and, for the owner, the way to the review of a sent one.
 */
export default function RegistryPage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const returned = new URLSearchParams(useSearch()).get('returned');
  const overview = useRegistryOverview(companyId);
  const { roles } = useMemberRoles(companyId);
  const isOffline = useIsOffline();

  if (overview === undefined) return <PageSpinner />;
  const { open, registries } = overview;

  return (
    <section className="registry-page" aria-labelledby="registry-title">
      <p className="registry-page__back">
        <Link href={paths.dashboard}>
          <FormattedMessage id="planned.backToDashboard" defaultMessage="Back to the dashboard" />
        </Link>
      </p>
      <h1 className="registry-page__title" id="registry-title">
        <FormattedMessage id="registry.list.title" defaultMessage="Project registry" />
      </h1>
      {returned && <ReturnedNotice companyId={companyId} registryId={returned} />}
      <OpenRegistrySection companyId={companyId} open={open} roles={roles} />
      <section className="registry-section" aria-labelledby="registry-past-title">
        <h2 className="registry-section__title" id="registry-past-title">
          <FormattedMessage id="registry.past.title" defaultMessage="Sent registries" />
        </h2>
        {registries.length === 0 ? (
          <p className="registry-empty" data-empty="past">
            <FormattedMessage id="registry.past.empty" defaultMessage="No registry has been sent to the owner yet." />
          </p>
        ) : (
          <div className="registry-cards">
            {registries.map((view) => (
              <PastRegistry key={view.registry.id} companyId={companyId} view={view} roles={roles} isOffline={isOffline} />
            ))}
          </div>
        )}
      </section>
    </section>
  );
}
