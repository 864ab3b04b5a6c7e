// One sent registry on the registry page: its number (or "waiting to be sent" while the server has not numbered a
// send made on this device), status in words, who sent and decided it and when, the owner's comment, its totals and
// its projects (in a collapse), the XLSX and PDF downloads (online only; a registry the server does not have yet has
// none), and for the owner a SENT registry's way to the review.
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import type { Roles } from '../../../domain/permissions';
import { availableRegistryActions } from '../../../domain/registry';
import { Button, buttonClassName } from '../../../ui/button';
import { Collapse } from '../../../ui/collapse';
import { useRegistryExport } from '../hooks';
import { UNNUMBERED, type RegistryExportFormat, type RegistryView } from '../store';
import { ItemsTable, MomentText, RegistryName, RegistryStatusBadge, TotalsTable, UnsentMark } from './registry-parts';

export interface PastRegistryProps {
  companyId: string;
  view: RegistryView;
  roles: Roles;
  isOffline: boolean;
}

const FORMATS: readonly RegistryExportFormat[] = ['xlsx', 'pdf'];

export function PastRegistry({ companyId, view, roles, isOffline }: PastRegistryProps) {
  const intl = useIntl();
  const download = useRegistryExport(companyId);
  const [busy, setBusy] = useState<RegistryExportFormat | null>(null);
  const { registry, unsent } = view;
  const isNumbered = registry.number !== UNNUMBERED;
  const mayReview = registry.status === 'SENT' && availableRegistryActions({ status: registry.status, projectCount: registry.items.length }, roles).includes('APPROVE');
  const isAdjusted = registry.items.some((item) => item.finalCostMinor !== null);
  const titleId = `registry-past-title-${registry.id}`;

  const exportAs = (format: RegistryExportFormat) => {
    setBusy(format);
    void download(registry, format).finally(() => setBusy(null));
  };

  return (
    <article className="registry-card" aria-labelledby={titleId} data-testid={`registry-past-${registry.number}`} data-status={registry.status} data-unsent={unsent ?? undefined}>
      <header className="registry-card__head">
        <h3 className="registry-card__title" id={titleId}>
          <RegistryName number={registry.number} />
        </h3>
        <p className="registry-card__status">
          <RegistryStatusBadge status={registry.status} />
          {unsent && <UnsentMark state={unsent} />}
        </p>
      </header>
      <dl className="registry-card__facts">
        <dt>
          <FormattedMessage id="registry.past.sent" defaultMessage="Sent" />
        </dt>
        <dd data-field="sent">
          <FormattedMessage id="registry.past.byAt" defaultMessage="{name}, {at}" values={{ name: registry.sentByName, at: <MomentText at={registry.sentAt} /> }} />
        </dd>
        {registry.decidedAt !== null && (
          <>
            <dt>
              <FormattedMessage id="registry.past.decided" defaultMessage="Decided" />
            </dt>
            <dd data-field="decided">
              <FormattedMessage
                id="registry.past.byAt"
                defaultMessage="{name}, {at}"
                values={{ name: registry.decidedByName ?? intl.formatMessage({ id: 'registry.past.someone', defaultMessage: 'the owner' }), at: <MomentText at={registry.decidedAt} /> }}
              />
            </dd>
          </>
        )}
        {registry.comment !== null && (
          <>
            <dt>
              <FormattedMessage id="registry.past.comment" defaultMessage="Owner’s comment" />
            </dt>
            <dd className="registry-card__comment" data-field="comment">
              {registry.comment}
            </dd>
          </>
        )}
      </dl>
      <TotalsTable
        totals={registry.totals}
        showFinal={registry.status === 'APPROVED'}
        caption={<FormattedMessage id="registry.past.totalsCaption" defaultMessage="Totals by currency" />}
      />
      <Collapse title={<FormattedMessage id="registry.past.items" defaultMessage="Projects ({count, number})" values={{ count: registry.items.length }} />}>
        <ItemsTable
          items={registry.items}
          showFinal={isAdjusted}
          caption={<FormattedMessage id="registry.past.itemsCaption" defaultMessage="Projects of the registry" />}
          renderName={(item) => <Link href={paths.company.project(companyId, item.projectId)}>{item.name}</Link>}
        />
      </Collapse>
      <div className="registry-actions">
        {mayReview && (
          <Link href={`${paths.company.registryApprove(companyId)}?id=${encodeURIComponent(registry.id)}`} className={buttonClassName('primary')} data-action="review">
            <FormattedMessage id="registry.past.review" defaultMessage="Review and approve" />
          </Link>
        )}
        {isNumbered &&
          FORMATS.map((format) => (
            <Button
              key={format}
              variant="secondary"
              loading={busy === format}
              disabled={busy !== null && busy !== format}
              onClick={() => exportAs(format)}
              data-testid={`registry-export-${format}-${registry.number}`}
            >
              <FormattedMessage id="registry.past.download" defaultMessage="Download {format, select, xlsx {XLSX} pdf {PDF} other {file}}" values={{ format }} />
            </Button>
          ))}
      </div>
      {isNumbered && isOffline && (
        <p className="registry-note" data-note="offline-export">
          <FormattedMessage id="registry.past.offlineExport" defaultMessage="You are offline: downloading the XLSX or PDF needs a connection to the server." />
        </p>
      )}
      {!isNumbered && (
        <p className="registry-note" data-note="unnumbered">
          <FormattedMessage
            id="registry.past.unnumbered"
            defaultMessage="This registry is saved on this device. It gets its number, and its XLSX and PDF, once the server has it."
          />
        </p>
      )}
    </article>
  );
}
