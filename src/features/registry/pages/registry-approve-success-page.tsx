import { FormattedMessage } from 'react-intl';
import { RegistryResult } from '../components/registry-result';
import { TotalsTable, numberValues } from '../components/registry-parts';
import '../registry.css';

/** After the owner's approval (`?id=`): the registry approved, how many costs were adjusted, estimated and final totals. */
export default function RegistryApproveSuccessPage() {
  return (
    <RegistryResult title={<FormattedMessage id="registry.approveSuccess.title" defaultMessage="Registry approved" />}>
      {({ registry }) => {
        const adjusted = registry.items.filter((item) => item.finalCostMinor !== null).length;
        return (
          <>
            <p data-result={registry.status}>
              {registry.status === 'APPROVED' ? (
                <FormattedMessage
                  id="registry.approveSuccess.approved"
                  defaultMessage="Registry{hasNumber, select, yes { No. {number}} other {}} is approved: {count, plural, one {# project} other {# projects}}, {adjusted, plural, =0 {no cost adjusted} one {# cost adjusted} other {# costs adjusted}}. Its figures are now the figures of record."
                  values={{ ...numberValues(registry.number), count: registry.items.length, adjusted }}
                />
              ) : (
                <FormattedMessage
                  id="registry.approveSuccess.other"
                  defaultMessage="Registry{hasNumber, select, yes { No. {number}} other {}} is not approved: it is {status, select, SENT {still waiting for the decision} RETURNED {returned} other {in another state}}."
                  values={{ ...numberValues(registry.number), status: registry.status }}
                />
              )}
            </p>
            <TotalsTable
              totals={registry.totals}
              showFinal
              caption={<FormattedMessage id="registry.approveSuccess.totalsCaption" defaultMessage="Totals by currency: estimated and final" />}
            />
          </>
        );
      }}
    </RegistryResult>
  );
}
