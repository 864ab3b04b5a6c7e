import { useId, useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { HrRegistrationInput, IMPLEMENTATION_GOALS, POSITIONS, REGISTRATION_ROLES, RegistrationInput } from '../../../domain/auth';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { useFieldVisits } from '../field-visits';
import type { RegistrationRequest } from '../hooks';
import { goalMessages, positionMessages, roleMessages } from '../option-messages';

export interface RegisterFormProps {
  /** Sends the validated registration; a `FormError` it throws is shown on the form. */
  onSubmit: (request: RegistrationRequest) => Promise<void>;
}

const EMPTY = {
  lastName: '',
  firstName: '',
  middleName: '',
  position: '',
  otherPosition: '',
  company: '',
  inn: '',
  mainGoal: '',
  phone: '',
  email: '',
  role: '',
  password: '',
};

/**
 * Registration of spec section 3, validated by `RegistrationInput` (or `HrRegistrationInput` when the
 * person registers as HR: no role and no implementation goal to choose), the structs the server uses.
 */
export function RegisterForm({ onSubmit }: RegisterFormProps) {
  const intl = useIntl();
  const switchId = useId();
  const [isHr, setHr] = useState(false);
  const visits = useFieldVisits();
  const form = useForm<RegistrationInput | HrRegistrationInput>({
    struct: isHr ? HrRegistrationInput : RegistrationInput,
    initialValues: EMPTY,
  });

  const positions = useMemo(() => POSITIONS.map((id) => ({ id, title: intl.formatMessage(positionMessages[id]) })), [intl]);
  const goals = useMemo(() => IMPLEMENTATION_GOALS.map((id) => ({ id, title: intl.formatMessage(goalMessages[id]) })), [intl]);
  const roles = useMemo(() => REGISTRATION_ROLES.map((id) => ({ id, title: intl.formatMessage(roleMessages[id]) })), [intl]);
  const choose = intl.formatMessage({ id: 'auth.register.choose', defaultMessage: 'Choose…' });
  const isOtherPosition = form.values.position === 'OTHER';

  const submit = form.handleSubmit(async (value) => {
    // The value passed the struct of the current mode; `is` narrows it without a cast.
    const input = { ...value, otherPosition: value.position === 'OTHER' ? value.otherPosition : undefined };
    if (isHr) {
      await onSubmit({ kind: 'hr', input });
    } else if (RegistrationInput.is(input)) {
      await onSubmit({ kind: 'owner', input });
    } else {
      throw new Error('Registration value does not match RegistrationInput');
    }
  });

  const label = {
    lastName: intl.formatMessage({ id: 'auth.register.lastName', defaultMessage: 'Last name' }),
    firstName: intl.formatMessage({ id: 'auth.register.firstName', defaultMessage: 'First name' }),
    middleName: intl.formatMessage({ id: 'auth.register.middleName', defaultMessage: 'Middle name' }),
    position: intl.formatMessage({ id: 'auth.register.position', defaultMessage: 'Position' }),
    otherPosition: intl.formatMessage({ id: 'auth.register.otherPosition', defaultMessage: 'Your position' }),
    company: intl.formatMessage({ id: 'auth.register.company', defaultMessage: 'Company' }),
    inn: intl.formatMessage({ id: 'auth.register.inn', defaultMessage: 'Taxpayer number (INN)' }),
    mainGoal: intl.formatMessage({ id: 'auth.register.mainGoal', defaultMessage: 'Main implementation goal' }),
    phone: intl.formatMessage({ id: 'auth.register.phone', defaultMessage: 'Phone' }),
    email: intl.formatMessage({ id: 'auth.register.email', defaultMessage: 'E-mail' }),
    role: intl.formatMessage({ id: 'auth.register.role', defaultMessage: 'Role' }),
    password: intl.formatMessage({ id: 'auth.register.password', defaultMessage: 'Password' }),
  };

  return (
    <form className="auth-form" noValidate onSubmit={submit} onBlurCapture={visits.onBlurCapture}>
      <label className="auth-switch" htmlFor={switchId}>
        <input
          id={switchId}
          className="auth-switch__input"
          type="checkbox"
          role="switch"
          name="asHr"
          checked={isHr}
          onChange={(event) => setHr(event.currentTarget.checked)}
        />
        <span className="auth-switch__text">
          <span className="auth-switch__title">
            <FormattedMessage id="auth.register.asHr" defaultMessage="I register as HR" />
          </span>
          <span className="auth-switch__hint">
            {isHr ? (
              <FormattedMessage
                id="auth.register.asHrOn"
                defaultMessage="Your account gets the HR role: you will manage departments, staff and invitations."
              />
            ) : (
              <FormattedMessage
                id="auth.register.asHrOff"
                defaultMessage="Turn this on if you work in HR; owners and managers leave it off and choose their role below."
              />
            )}
          </span>
        </span>
      </label>

      <div className="auth-form__row">
        <TextField {...visits.field(form.textField('lastName', label.lastName))} autoComplete="family-name" />
        <TextField {...visits.field(form.textField('firstName', label.firstName))} autoComplete="given-name" />
      </div>
      <TextField {...visits.field(form.textField('middleName', label.middleName))} autoComplete="additional-name" />

      <Select {...visits.field(form.selectField('position', label.position))} options={positions} placeholder={choose} />
      {isOtherPosition && (
        <TextField {...visits.field(form.textField('otherPosition', label.otherPosition))} required autoComplete="organization-title" />
      )}

      <TextField {...visits.field(form.textField('company', label.company))} autoComplete="organization" />
      <TextField
        {...visits.field(form.textField('inn', label.inn))}
        validate="int"
        autoComplete="off"
        maxLength={12}
        tip={<FormattedMessage id="auth.register.innTip" defaultMessage="10 digits for a company, 12 for an individual entrepreneur." />}
      />
      {!isHr && <Select {...visits.field(form.selectField('mainGoal', label.mainGoal))} options={goals} placeholder={choose} />}

      <TextField
        {...visits.field(form.textField('phone', label.phone))}
        type="tel"
        mask="phone"
        autoComplete="tel"
        tip={<FormattedMessage id="auth.register.phoneTip" defaultMessage="For example +7 912 345-67-89." />}
      />
      <TextField {...visits.field(form.textField('email', label.email))} type="email" mask="email" autoComplete="email" />
      {!isHr && <Select {...visits.field(form.selectField('role', label.role))} options={roles} placeholder={choose} />}

      <TextField
        {...visits.field(form.textField('password', label.password))}
        type="password"
        autoComplete="new-password"
        tip={<FormattedMessage id="auth.register.passwordTip" defaultMessage="8 to 128 characters." />}
      />

      <Button type="submit" block loading={form.isSubmitting}>
        {isHr ? (
          <FormattedMessage id="auth.register.submitHr" defaultMessage="Create an HR account" />
        ) : (
          <FormattedMessage id="auth.register.submit" defaultMessage="Create an account" />
        )}
      </Button>
    </form>
  );
}
