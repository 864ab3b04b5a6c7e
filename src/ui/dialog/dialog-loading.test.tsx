// The dialog's own code is fetched when a dialog is first asked for (dialog-provider.tsx). When it cannot be
// loaded, nothing is done on the user's behalf: a confirmation answers "no", an alert simply closes, and the page
// keeps working.
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '../../../locales/en.json';
import { DialogProvider, useDialog, type DialogApi } from './index';

vi.mock('./dialog-view', () => {
  throw new Error('chunk gone');
});

afterEach(cleanup);

function Asker({ onApi }: { onApi: (api: DialogApi) => void }) {
  onApi(useDialog());
  return <p>The page</p>;
}

describe('a dialog whose code cannot be loaded', () => {
  it('answers a confirmation with no and closes an alert, and shows no half-drawn dialog', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let api: DialogApi | null = null;
    render(
      <IntlProvider locale="en" messages={en}>
        <DialogProvider>
          <Asker onApi={(given) => (api = given)} />
        </DialogProvider>
      </IntlProvider>,
    );
    const dialogs = api as unknown as DialogApi;
    let confirmed: boolean | undefined;
    act(() => {
      void dialogs.confirm({ title: 'Delete the draft?', content: 'It is only on this device.', confirmText: 'Delete' }).then((answer) => (confirmed = answer));
    });
    await waitFor(() => expect(confirmed).toBe(false));
    let isAlertClosed = false;
    act(() => {
      void dialogs.alert({ title: 'Saved', content: 'The draft is saved.' }).then(() => (isAlertClosed = true));
    });
    await waitFor(() => expect(isAlertClosed).toBe(true));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('The page')).toBeTruthy();
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });
});
