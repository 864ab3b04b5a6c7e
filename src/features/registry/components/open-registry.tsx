// The company's open registry: the approved projects not yet sent (read from the mirror, so it shows offline), their
// totals per currency, and "Send to the owner" for the roles the registry's transition table allows (disabled, with
// the reason beside it, while there is nothing to send). The send is stored on the device and sent by the outbox.
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useLocation } from 'wouter';
import { paths } from '../../../domain/paths';
import type { Roles } from '../../../domain/permissions';
import { availableRegistryActions, registryTransition } from '../../../domain/registry';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { useRegistryActions } from '../hooks';
import type { OpenRegistry } from '../store';
import { ItemsTable, TotalsTable } from './registry-parts';

export interface OpenRegistrySectionProps {
  companyId: string;
  open: OpenRegistry;
  roles: Roles;
}

export function OpenRegistrySection({ companyId, open, roles }: OpenRegistrySectionProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const [, navigate] = useLocation();
  const actions = useRegistryActions(companyId);
  const [isSending, setSending] = useState(false);
  const count = open.items.length;
  // The role may send at all (whatever the registry holds); whether it may send now also needs a project.
  const maySend = registryTransition('SEND', { status: 'OPEN', projectCount: 1 }, roles).ok;
  const canSendNow = availableRegistryActions({ status: 'OPEN', projectCount: count }, roles).includes('SEND');

  const send = async () => {
    setSending(true);
    try {
      const id = await actions.send(open.items.map((item) => item.projectId));
      navigate(`${paths.company.registrySuccess(companyId)}?id=${encodeURIComponent(id)}`);
    } catch (error) {
      setSending(false);
      await dialog.error(error instanceof Error && error.message !== '' ? { content: error.message } : {});
    }
  };

  return (
    <section className="registry-section" aria-labelledby="registry-open-title" data-testid="registry-open" data-count={count}>
      <h2 className="registry-section__title" id="registry-open-title">
        <FormattedMessage id="registry.open.title" defaultMessage="Open registry" />
      </h2>
      <p className="registry-section__lead">
        <FormattedMessage
          id="registry.open.lead"
          defaultMessage="Approved projects not yet sent to the owner: {count, plural, =0 {none at the moment} one {# project} other {# projects}}."
          values={{ count }}
        />
      </p>
      {count === 0 ? (
        <p className="registry-empty" data-empty="">
          <FormattedMessage
            id="registry.open.empty"
            defaultMessage="The open registry is empty. Projects come here when the direction manager approves them. If you expect some, connect once so the list can load."
          />
        </p>
      ) : (
        <>
          <ItemsTable
            items={open.items}
            caption={<FormattedMessage id="registry.open.itemsCaption" defaultMessage="Projects of the open registry" />}
            renderName={(item) => <Link href={paths.company.project(companyId, item.projectId)}>{item.name}</Link>}
          />
          <TotalsTable totals={open.totals} caption={<FormattedMessage id="registry.open.totalsCaption" defaultMessage="Totals by currency" />} />
        </>
      )}
      {maySend ? (
        <div className="registry-actions">
          <Button onClick={() => void send()} loading={isSending} disabled={!canSendNow} data-testid="registry-send" aria-describedby={canSendNow ? undefined : 'registry-send-reason'}>
            <FormattedMessage id="registry.open.send" defaultMessage="Send to the owner" />
          </Button>
          {!canSendNow && (
            <p className="registry-note" id="registry-send-reason">
              {intl.formatMessage({ id: 'registry.open.sendEmpty', defaultMessage: 'There is nothing to send: the open registry has no projects.' })}
            </p>
          )}
        </div>
      ) : (
        <p className="registry-note" data-note="who-sends">
          <FormattedMessage id="registry.open.whoSends" defaultMessage="The direction manager or the financial director sends the open registry to the owner." />
        </p>
      )}
    </section>
  );
}
