import { FormattedMessage } from 'react-intl';
import { RegistryResult } from '../components/registry-result';
import { TotalsTable } from '../components/registry-parts';
import { UNNUMBERED } from '../store';
import '../registry.css';

/** After "Send to the owner" (`?id=`): the registry sent (or waiting to be sent), its projects and totals. */
export default function RegistrySuccessPage() {
  return (
    <RegistryResult title={<FormattedMessage id="registry.sendSuccess.title" defaultMessage="Registry sent" />}>
      {({ registry }) => (
        <>
          <p data-result={registry.number === UNNUMBERED ? 'unnumbered' : 'numbered'}>
            {registry.number === UNNUMBERED ? (
              <FormattedMessage
                id="registry.sendSuccess.unnumbered"
                defaultMessage="The registry of {count, plural, one {# project} other {# projects}} is saved on this device and goes to the owner as soon as the server has it; it gets its number then."
                values={{ count: registry.items.length }}
              />
            ) : (
              <FormattedMessage
                id="registry.sendSuccess.numbered"
                defaultMessage="Registry No. {number} of {count, plural, one {# project} other {# projects}} is with the owner, waiting for their decision."
                values={{ number: registry.number, count: registry.items.length }}
              />
            )}
          </p>
          <TotalsTable totals={registry.totals} caption={<FormattedMessage id="registry.sendSuccess.totalsCaption" defaultMessage="Totals by currency" />} />
        </>
      )}
    </RegistryResult>
  );
}
