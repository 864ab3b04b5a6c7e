// The roles of a person in the company, as the employee form and the invitation form ask for them: a multiple
// select over the form's comma-separated field (forms hold strings), with the tip that leading roles are the owner's
// or the CEO's to give when some are out of the user's reach.
import { refine, string } from 'superstruct';
import { useIntl } from 'react-intl';
import type { SelectFieldBinding } from '../../../ui/form';
import { Select, type SelectOption } from '../../../ui/select';

/** The role ids of the form's comma-separated `roles` value. */
export function splitRoles(value: string): string[] {
  return value.split(',').filter((role) => role !== '');
}

/** The forms' `roles` field: at least one role. */
export const RolesFieldStruct = refine(string(), 'roles', (value) => splitRoles(value).length > 0);

export function RolesSelect({ field, options, isLimited }: { field: SelectFieldBinding; options: readonly SelectOption[]; isLimited: boolean }) {
  const intl = useIntl();
  return (
    <Select
      multiple
      name={field.name}
      label={field.label}
      required={field.required}
      error={field.error}
      onBlur={field.onBlur}
      value={splitRoles(field.value)}
      onChange={(roles) => field.onChange(roles.join(','))}
      options={options}
      tip={
        isLimited
          ? intl.formatMessage({ id: 'employees.form.rolesTip', defaultMessage: 'Leading roles (owner, managers, financial director) are given by the owner or the CEO.' })
          : undefined
      }
    />
  );
}
