import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { availableRegistryActions } from '../../../domain/registry';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { ApproveForm } from '../components/approve-form';
import { ItemsTable, MomentText, RegistryName, RegistryStatusBadge, TotalsTable, UnsentMark } from '../components/registry-parts';
import { useMemberRoles, useRegistryToDecide } from '../hooks';
import '../registry.css';

/**
 * The owner's review of a sent registry (`?id=`, or else the oldest one waiting), read from the device's mirror
 * (works offline; the decision goes through the outbox). Whoever may not decide on it (not the owner, or it was
 * decided already) sees it read-only, with the reason.
 */
export default function RegistryApprovePage() {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const requested = new URLSearchParams(useSearch()).get('id');
  const view = useRegistryToDecide(companyId, requested);
  const { roles } = useMemberRoles(companyId);

  const back = (
    <p className="registry-page__back">
      <Link href={paths.company.registry(companyId)}>
        <FormattedMessage id="registry.approve.back" defaultMessage="Back to the registry" />
      </Link>
    </p>
  );
  const title = (
    <h1 className="registry-page__title" id="registry-approve-title">
      <FormattedMessage id="registry.approve.title" defaultMessage="Approve the registry" />
    </h1>
  );

  if (view === undefined) return <PageSpinner />;
  if (view === null) {
    return (
      <section className="registry-page" aria-labelledby="registry-approve-title" data-state="none">
        {back}
        {title}
        <p className="registry-empty" data-empty="">
          {requested ? (
            <FormattedMessage id="registry.approve.missing" defaultMessage="This registry is not on this device. It may not have been loaded yet: connect to the network and open it again." />
          ) : (
            <FormattedMessage id="registry.approve.none" defaultMessage="No registry is waiting for the owner’s approval." />
          )}
        </p>
        <Link href={paths.company.registry(companyId)} className={buttonClassName('primary')}>
          <FormattedMessage id="registry.approve.toRegistry" defaultMessage="To the registry" />
        </Link>
      </section>
    );
  }

  const { registry, unsent } = view;
  const mayDecide = availableRegistryActions({ status: registry.status, projectCount: registry.items.length }, roles).includes('APPROVE');
  const isOwner = roles.includes('OWNER');

  return (
    <section className="registry-page" aria-labelledby="registry-approve-title" data-state={mayDecide ? 'decide' : 'read-only'} data-status={registry.status}>
      {back}
      {title}
      <header className="registry-card__head">
        <h2 className="registry-card__title">
          <RegistryName number={registry.number} />
        </h2>
        <p className="registry-card__status">
          <RegistryStatusBadge status={registry.status} />
          {unsent && <UnsentMark state={unsent} />}
        </p>
      </header>
      <p className="registry-section__lead">
        <FormattedMessage
          id="registry.approve.sentBy"
          defaultMessage="Sent by {name}, {at}: {count, plural, one {# project} other {# projects}}."
          values={{ name: registry.sentByName, at: <MomentText at={registry.sentAt} />, count: registry.items.length }}
        />
      </p>
      {mayDecide ? (
        <>
          <p className="registry-section__lead">
            <FormattedMessage
              id="registry.approve.lead"
              defaultMessage="Check each project. You may set a different final cost for any of them, with the reason; then approve the registry, or return it to the sender with a comment."
            />
          </p>
          <ApproveForm key={registry.id} companyId={companyId} registry={registry} />
        </>
      ) : (
        <>
          <p className="registry-notice" role="note" data-note={registry.status === 'SENT' ? 'not-owner' : 'decided'}>
            {registry.status !== 'SENT' ? (
              <FormattedMessage
                id="registry.approve.decided"
                defaultMessage="This registry is no longer waiting for a decision: {status, select, APPROVED {it is approved} RETURNED {it was returned} other {it is not sent}}."
                values={{ status: registry.status }}
              />
            ) : isOwner ? (
              <FormattedMessage id="registry.approve.cannot" defaultMessage="This registry cannot be decided on from here." />
            ) : (
              <FormattedMessage
                id="registry.approve.readOnly"
                defaultMessage="Only the owner approves or returns a registry. You see it as it was sent."
              />
            )}
          </p>
          {registry.comment !== null && (
            <p className="registry-card__comment" data-field="comment">
              <FormattedMessage id="registry.approve.ownerComment" defaultMessage="Owner’s comment: {comment}" values={{ comment: registry.comment }} />
            </p>
          )}
          <ItemsTable
            items={registry.items}
            showFinal={registry.status === 'APPROVED'}
            caption={<FormattedMessage id="registry.past.itemsCaption" defaultMessage="Projects of the registry" />}
          />
          <div data-testid="registry-totals">
            <TotalsTable
              totals={registry.totals}
              showFinal={registry.status === 'APPROVED'}
              caption={<FormattedMessage id="registry.approve.totalsCaption" defaultMessage="Totals by currency" />}
            />
          </div>
        </>
      )}
    </section>
  );
}
