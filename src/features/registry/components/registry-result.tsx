// The frame of the pages after a send or a decision (`?id=` names the registry): the title, what happened (offline
// included: the change is already in the device's copy), whether the server has it yet, and the links onward.
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link, useParams, useSearch } from 'wouter';
import { paths } from '../../../domain/paths';
import { buttonClassName } from '../../../ui/button';
import { PageSpinner } from '../../../ui/spinner';
import { useRegistryView } from '../hooks';
import type { RegistryView } from '../store';
import { SentState } from './registry-parts';

export interface RegistryResultProps {
  title: ReactNode;
  /** What happened, from the mirrored registry. */
  children: (view: RegistryView) => ReactNode;
}

export function RegistryResult({ title, children }: RegistryResultProps) {
  const { companyId = '' } = useParams<{ companyId: string }>();
  const registryId = new URLSearchParams(useSearch()).get('id');
  const view = useRegistryView(companyId, registryId);
  if (view === undefined) return <PageSpinner />;
  return (
    <section className="registry-page registry-result" aria-labelledby="registry-result-title" data-state={view === null ? 'missing' : view.unsent ? 'waiting' : 'sent'}>
      <h1 className="registry-page__title" id="registry-result-title">
        {title}
      </h1>
      {view === null ? (
        <p className="registry-empty">
          <FormattedMessage id="registry.result.missing" defaultMessage="This registry is not on this device. Open the registry page to see where things stand." />
        </p>
      ) : (
        <>
          <div className="registry-result__text" role="status">
            {children(view)}
          </div>
          <SentState unsent={view.unsent} />
        </>
      )}
      <div className="registry-actions">
        <Link href={paths.company.registry(companyId)} className={buttonClassName('primary')}>
          <FormattedMessage id="registry.result.toRegistry" defaultMessage="To the registry" />
        </Link>
        <Link href={paths.dashboard} className={buttonClassName('secondary')}>
          <FormattedMessage id="registry.result.toDashboard" defaultMessage="To the dashboard" />
        </Link>
        {view?.unsent && (
          <Link href={paths.unsent} className={buttonClassName('secondary')}>
            <FormattedMessage id="registry.result.unsent" defaultMessage="Unsent" />
          </Link>
        )}
      </div>
    </section>
  );
}
