import { FormattedList, FormattedMessage, defineMessages, useIntl } from 'react-intl';
import type { StartRequirement } from '../../../domain/company';

const requirement = defineMessages({
  OWNER: { id: 'suggestions.blocked.owner', defaultMessage: 'an owner' },
  MANAGER: { id: 'suggestions.blocked.manager', defaultMessage: 'a manager' },
  FINANCIAL_DIRECTOR: { id: 'suggestions.blocked.financialDirector', defaultMessage: 'a financial director' },
});

/** Why the form is not shown: the company may not take proposals until it has these people. */
export function StartBlockedNotice({ missing }: { missing: readonly StartRequirement[] }) {
  const intl = useIntl();
  return (
    <div className="suggestions-page__warning" role="status">
      <p>
        <FormattedMessage
          id="suggestions.blocked.text"
          defaultMessage="Your company cannot take proposals yet. To start, it needs: {missing}. Ask your HR or the owner to invite them; the dashboard shows what is left to do."
          values={{ missing: <FormattedList type="conjunction" value={missing.map((m) => intl.formatMessage(requirement[m]))} /> }}
        />
      </p>
    </div>
  );
}
