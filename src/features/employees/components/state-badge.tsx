import { defineMessages, useIntl } from 'react-intl';
import type { EmployeeState } from '../../../domain/company';

export const STATE_MESSAGES = defineMessages({
  active: { id: 'employees.state.active', defaultMessage: 'Joined' },
  inactive: { id: 'employees.state.inactive', defaultMessage: 'Inactive' },
  invited: { id: 'employees.state.invited', defaultMessage: 'Invited' },
  noAccount: { id: 'employees.state.noAccount', defaultMessage: 'No account' },
});

/** The employee's state (`employeeStateOf`) as a small coloured label. */
export function StateBadge({ state }: { state: EmployeeState }) {
  const intl = useIntl();
  return (
    <span className={`state-badge state-badge--${state}`} data-state={state}>
      {intl.formatMessage(STATE_MESSAGES[state])}
    </span>
  );
}
