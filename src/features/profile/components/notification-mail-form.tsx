import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { NOTIFICATION_MAIL_MODES, type NotificationMailMode } from '../../../domain/notification';

export interface NotificationMailFormProps {
  /** The saved choice. */
  value: NotificationMailMode;
  /** Saves a new choice; rejects with the reason (a FormError's message is shown as it is). */
  onSave: (mode: NotificationMailMode) => Promise<void>;
}

type Outcome = { kind: 'idle' } | { kind: 'saved' } | { kind: 'failed'; message: string };

/**
 * How notifications are mailed: each as it happens, or one daily digest. A choice is saved at once; until the
 * server has it the new choice shows as being saved, and a failure puts the saved one back and says why.
 */
export function NotificationMailForm({ value, onSave }: NotificationMailFormProps) {
  const intl = useIntl();
  const legendId = useId();
  const [pending, setPending] = useState<NotificationMailMode | null>(null);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const shown = pending ?? value;
  const labels: Record<NotificationMailMode, string> = {
    instant: intl.formatMessage({ id: 'profile.notificationMail.instant', defaultMessage: 'Each as it happens' }),
    digest: intl.formatMessage({ id: 'profile.notificationMail.digest', defaultMessage: 'One daily digest' }),
  };

  const choose = (mode: NotificationMailMode) => {
    if (mode === shown || pending !== null) return;
    setPending(mode);
    setOutcome({ kind: 'idle' });
    onSave(mode).then(
      () => {
        setPending(null);
        setOutcome({ kind: 'saved' });
      },
      (error: unknown) => {
        setPending(null);
        const message = error instanceof Error && error.message !== '' ? error.message : null;
        if (message === null) console.error('Could not save the notification mail setting', error);
        setOutcome({
          kind: 'failed',
          message: message ?? intl.formatMessage({ id: 'profile.notificationMail.failed', defaultMessage: 'The setting was not saved. Try again.' }),
        });
      },
    );
  };

  return (
    <form className="profile-form" noValidate onSubmit={(event) => event.preventDefault()} data-form="notification-mail">
      <fieldset className="profile-choice" aria-labelledby={legendId} aria-busy={pending !== null || undefined}>
        <legend id={legendId} className="profile-choice__legend">
          <FormattedMessage id="profile.notificationMail.legend" defaultMessage="E-mail notifications" />
        </legend>
        {NOTIFICATION_MAIL_MODES.map((mode) => (
          <label key={mode} className={`profile-choice__option${shown === mode ? ' profile-choice__option--checked' : ''}`}>
            <input
              type="radio"
              name="notificationMail"
              value={mode}
              checked={shown === mode}
              disabled={pending !== null && pending !== mode}
              onChange={(event) => {
                if (event.currentTarget.checked) choose(mode);
              }}
            />
            <span>{labels[mode]}</span>
          </label>
        ))}
      </fieldset>
      {pending !== null && (
        <p className="profile-form__note" role="status">
          <FormattedMessage id="profile.notificationMail.saving" defaultMessage="Saving…" />
        </p>
      )}
      {outcome.kind === 'saved' && pending === null && (
        <p className="profile-form__saved" role="status">
          <FormattedMessage
            id="profile.notificationMail.saved"
            defaultMessage="Saved: {mode, select, digest {one digest a day} other {each notification as it happens}}."
            values={{ mode: value }}
          />
        </p>
      )}
      {outcome.kind === 'failed' && (
        <p className="profile-form__error" role="alert">
          {outcome.message}
        </p>
      )}
    </form>
  );
}
