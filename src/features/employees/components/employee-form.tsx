import { useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { object } from 'superstruct';
import { COMPANY_ROLES } from '../../../domain/auth';
import { EmployeeInput } from '../../../domain/company';
import { canGrantRoles, changedRoles } from '../../../domain/permissions';
import { Button } from '../../../ui/button';
import { FormError, useForm } from '../../../ui/form';
import { Select, type SelectOption } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { RolesFieldStruct, RolesSelect, splitRoles } from './roles-select';

/** What the form gives: the employee's fields, trimmed, empty optional ones as null. */
export interface EmployeeDraft {
  lastName: string;
  firstName: string;
  middleName: string | null;
  position: string | null;
  email: string | null;
  serviceNumber: string | null;
  departmentId: string | null;
  roles: string[];
  active: boolean;
}

const schema = EmployeeInput.schema;

/** The form's struct: the server's rules for each field; roles as the select's comma-separated ids. */
export const EmployeeFormStruct = object({
  lastName: schema.lastName,
  firstName: schema.firstName,
  middleName: schema.middleName,
  position: schema.position,
  email: schema.email,
  serviceNumber: schema.serviceNumber,
  departmentId: schema.departmentId,
  roles: RolesFieldStruct,
});

const orNull = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

export interface EmployeeFormProps {
  /** The employee being edited; a new one otherwise. */
  initial?: EmployeeDraft;
  departments: readonly { id: string; title: string }[];
  /** The signed-in user's roles in the company: which roles they may grant (`canGrantRoles`). */
  granterRoles: readonly string[];
  roleTitle: (role: string) => string;
  /** False when the server is out of reach: the form says so and sends nothing. */
  isOnline: boolean;
  /** Stores the employee; a `FormError` it throws is shown on the form (field errors beside the fields). */
  onSubmit: (draft: EmployeeDraft) => Promise<void>;
}

/** New employees start as plain employees. */
const DEFAULT_ROLES = ['EMPLOYEE'];

export function EmployeeForm({ initial, departments, granterRoles, roleTitle, isOnline, onSubmit }: EmployeeFormProps) {
  const intl = useIntl();
  const activeId = useId();
  const isEditing = initial !== undefined;
  const initialRoles = useMemo(() => initial?.roles ?? DEFAULT_ROLES, [initial]);
  const form = useForm({
    struct: EmployeeFormStruct,
    initialValues: {
      lastName: initial?.lastName ?? '',
      firstName: initial?.firstName ?? '',
      middleName: initial?.middleName ?? '',
      position: initial?.position ?? '',
      email: initial?.email ?? '',
      serviceNumber: initial?.serviceNumber ?? '',
      departmentId: initial?.departmentId ?? '',
      roles: initialRoles.join(','),
    },
  });
  const [isActive, setActive] = useState(initial?.active ?? true);

  const roleOptions: SelectOption[] = useMemo(
    () => COMPANY_ROLES.map((role) => ({ id: role, title: roleTitle(role), disabled: !canGrantRoles(granterRoles, [role]) })),
    [granterRoles, roleTitle],
  );

  const label = {
    lastName: intl.formatMessage({ id: 'employees.form.lastName', defaultMessage: 'Last name' }),
    firstName: intl.formatMessage({ id: 'employees.form.firstName', defaultMessage: 'First name' }),
    middleName: intl.formatMessage({ id: 'employees.form.middleName', defaultMessage: 'Middle name' }),
    position: intl.formatMessage({ id: 'employees.form.position', defaultMessage: 'Position' }),
    email: intl.formatMessage({ id: 'employees.form.email', defaultMessage: 'E-mail' }),
    serviceNumber: intl.formatMessage({ id: 'employees.form.serviceNumber', defaultMessage: 'Service number' }),
    departmentId: intl.formatMessage({ id: 'employees.form.department', defaultMessage: 'Department' }),
    roles: intl.formatMessage({ id: 'employees.form.roles', defaultMessage: 'Roles' }),
  };

  const rolesField = form.selectField('roles', label.roles);

  const submit = form.handleSubmit(async (value) => {
    if (!isOnline) throw new FormError({ isOffline: true });
    const roles = splitRoles(value.roles);
    const changed = changedRoles(initialRoles, roles);
    if (!canGrantRoles(granterRoles, changed)) {
      throw new FormError({
        fieldErrors: {
          roles: intl.formatMessage(
            { id: 'employees.form.rolesNotAllowed', defaultMessage: 'Only the owner (or the CEO) may give or take away: {roles}.' },
            { roles: changed.filter((role) => !canGrantRoles(granterRoles, [role])).map(roleTitle).join(', ') },
          ),
        },
      });
    }
    await onSubmit({
      lastName: value.lastName.trim(),
      firstName: value.firstName.trim(),
      middleName: orNull(value.middleName),
      position: orNull(value.position),
      email: orNull(value.email),
      serviceNumber: orNull(value.serviceNumber),
      departmentId: orNull(value.departmentId),
      roles,
      active: isActive,
    });
  });

  return (
    <form className="employee-form" noValidate onSubmit={submit}>
      <div className="employee-form__row">
        <TextField {...form.textField('lastName', label.lastName)} autoComplete="off" maxLength={100} />
        <TextField {...form.textField('firstName', label.firstName)} autoComplete="off" maxLength={100} />
        <TextField {...form.textField('middleName', label.middleName)} autoComplete="off" maxLength={100} />
      </div>
      <TextField {...form.textField('position', label.position)} maxLength={200} />
      <div className="employee-form__row">
        <TextField {...form.textField('email', label.email)} type="email" inputMode="email" autoComplete="off" maxLength={254} />
        <TextField {...form.textField('serviceNumber', label.serviceNumber)} autoComplete="off" maxLength={50} />
      </div>
      <Select
        {...form.selectField('departmentId', label.departmentId)}
        options={departments}
        placeholder={intl.formatMessage({ id: 'employees.form.noDepartment', defaultMessage: 'No department' })}
        searchable={departments.length > 8}
      />
      <RolesSelect field={rolesField} options={roleOptions} isLimited={roleOptions.some((option) => option.disabled)} />
      <label className="employee-form__switch" htmlFor={activeId}>
        <input id={activeId} type="checkbox" name="active" checked={isActive} onChange={(event) => setActive(event.currentTarget.checked)} />
        <span>
          <FormattedMessage id="employees.form.active" defaultMessage="Active" />
          <span className="employee-form__switch-hint">
            <FormattedMessage id="employees.form.activeHint" defaultMessage="An inactive employee cannot sign in to this company and is not offered as a reviewer." />
          </span>
        </span>
      </label>
      {!isOnline && (
        <p className="people-note people-note--warning" data-offline="">
          <FormattedMessage id="employees.form.offline" defaultMessage="You are offline. Saving needs a connection: the form keeps what you typed." />
        </p>
      )}
      <Button type="submit" loading={form.isSubmitting} block>
        {isEditing ? (
          <FormattedMessage id="employees.form.save" defaultMessage="Save" />
        ) : (
          <FormattedMessage id="employees.form.create" defaultMessage="Add the employee" />
        )}
      </Button>
    </form>
  );
}
