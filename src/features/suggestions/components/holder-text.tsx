import { FormattedList, FormattedMessage } from 'react-intl';
import type { Holder } from '../people';

/** "Waiting on: Petrov P., head of Production" (or the CEO, or the owner, when it went up). */
export function HolderText({ holder }: { holder: Holder }) {
  const names = holder.names.length > 0 ? <FormattedList type="conjunction" value={holder.names} /> : null;
  const role =
    holder.level === 0 ? (
      <FormattedMessage id="suggestions.holder.head" defaultMessage="head of {department}" values={{ department: holder.departmentName ?? '' }} />
    ) : holder.level === 1 ? (
      <FormattedMessage id="suggestions.holder.ceo" defaultMessage="CEO" />
    ) : (
      <FormattedMessage id="suggestions.holder.owner" defaultMessage="owner" />
    );
  return (
    <span className="holder-text" data-level={holder.level}>
      {names ? (
        <FormattedMessage id="suggestions.holder.named" defaultMessage="Waiting on: {names}, {role}" values={{ names, role }} />
      ) : (
        <FormattedMessage id="suggestions.holder.unnamed" defaultMessage="Waiting on: the {role} (not on this device yet)" values={{ role }} />
      )}
    </span>
  );
}
