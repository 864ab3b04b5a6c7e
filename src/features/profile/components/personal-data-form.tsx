import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { object } from 'superstruct';
import { Phone, ProfilePatch, RegistrationInput } from '../../../domain/auth';
import type { CurrentUser } from '../../../domain/user';
import { Button } from '../../../ui/button';
import { useForm } from '../../../ui/form';
import { TextField } from '../../../ui/text-field';

const nameFields = {
  lastName: RegistrationInput.schema.lastName,
  firstName: RegistrationInput.schema.firstName,
  middleName: RegistrationInput.schema.middleName,
};

/**
 * The user's names and phone with the rules of registration. The phone cannot be cleared once given
 * (ProfilePatch); an account that never gave one (an invited person) may leave it empty.
 */
export const PersonalDataStruct = object({ ...nameFields, phone: Phone });
export const PersonalDataWithoutPhoneStruct = object({ ...nameFields, phone: ProfilePatch.schema.phone });

export interface PersonalDataFormProps {
  user: Pick<CurrentUser, 'lastName' | 'firstName' | 'middleName' | 'telephone'>;
  onSubmit: (patch: ProfilePatch) => Promise<void>;
}

/** Edits the user's own data; only what changed is sent. */
export function PersonalDataForm({ user, onSubmit }: PersonalDataFormProps) {
  const intl = useIntl();
  const [isSaved, setSaved] = useState(false);
  const form = useForm({
    struct: user.telephone ? PersonalDataStruct : PersonalDataWithoutPhoneStruct,
    initialValues: { lastName: user.lastName, firstName: user.firstName, middleName: user.middleName ?? '', phone: user.telephone ?? '' },
  });
  const label = {
    lastName: intl.formatMessage({ id: 'profile.lastName', defaultMessage: 'Last name' }),
    firstName: intl.formatMessage({ id: 'profile.firstName', defaultMessage: 'First name' }),
    middleName: intl.formatMessage({ id: 'profile.middleName', defaultMessage: 'Middle name' }),
    phone: intl.formatMessage({ id: 'profile.phone', defaultMessage: 'Phone' }),
  };

  const submit = form.handleSubmit(async (value) => {
    setSaved(false);
    const middleName = value.middleName?.trim() ?? '';
    const patch: ProfilePatch = {
      ...(value.lastName !== user.lastName ? { lastName: value.lastName } : {}),
      ...(value.firstName !== user.firstName ? { firstName: value.firstName } : {}),
      ...(middleName !== (user.middleName ?? '') ? { middleName: middleName === '' ? null : middleName } : {}),
      ...(value.phone !== undefined && value.phone !== (user.telephone ?? '') ? { phone: value.phone } : {}),
    };
    if (Object.keys(patch).length > 0) await onSubmit(patch);
    setSaved(true);
  });

  return (
    <form className="profile-form" noValidate onSubmit={submit} data-form="personal">
      <div className="profile-form__row">
        <TextField {...form.textField('lastName', label.lastName)} autoComplete="family-name" maxLength={100} />
        <TextField {...form.textField('firstName', label.firstName)} autoComplete="given-name" maxLength={100} />
      </div>
      <div className="profile-form__row">
        <TextField {...form.textField('middleName', label.middleName)} autoComplete="additional-name" maxLength={100} />
        <TextField {...form.textField('phone', label.phone)} type="tel" autoComplete="tel" inputMode="tel" maxLength={20} />
      </div>
      <div className="profile-form__actions">
        <Button type="submit" loading={form.isSubmitting} data-action="save-profile">
          <FormattedMessage id="profile.save" defaultMessage="Save" />
        </Button>
        {isSaved && !form.isSubmitting && (
          <span className="profile-form__saved" role="status">
            <FormattedMessage id="profile.saved" defaultMessage="Saved" />
          </span>
        )}
      </div>
    </form>
  );
}
