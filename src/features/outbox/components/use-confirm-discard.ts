import { useCallback } from 'react';
import { useIntl } from 'react-intl';
import { useDialog } from '../../../ui/dialog';

/** Asks whether to discard `what` (a change named as the list names it); true once the user confirmed. */
export function useConfirmDiscard(): (what: string) => Promise<boolean> {
  const intl = useIntl();
  const dialog = useDialog();
  return useCallback(
    (what: string) =>
      dialog.confirm({
        title: intl.formatMessage({ id: 'outbox.discard.title', defaultMessage: 'Discard this change?' }),
        content: intl.formatMessage(
          { id: 'outbox.discard.text', defaultMessage: '{what} will be deleted from this device and never sent. This cannot be undone.' },
          { what },
        ),
        confirmText: intl.formatMessage({ id: 'outbox.discard.confirm', defaultMessage: 'Discard' }),
        closeText: intl.formatMessage({ id: 'outbox.discard.keep', defaultMessage: 'Keep it' }),
      }),
    [dialog, intl],
  );
}
