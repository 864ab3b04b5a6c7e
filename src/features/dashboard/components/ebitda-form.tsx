// The financial director's EBITDA entry: a month, a currency and an amount (negative allowed), the months already
// entered listed with their values (change one, or clear it: amountMinor null). Online only: the server keeps
// EBITDA, and offline the form says plainly that it needs the connection. After a save the dashboard asks for
// its figures again (`onSaved`).
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { enums, object } from 'superstruct';
import { Month, type EbitdaRow } from '../../../domain/dashboard';
import { CURRENCIES } from '../../../domain/suggestion';
import { Button } from '../../../ui/button';
import { FormError, useForm } from '../../../ui/form';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { useDialog } from '../../../ui/dialog';
import { useEbitda } from '../form-hooks';
import type { EbitdaTransport } from '../ebitda-store';
import { AMOUNT_MESSAGES, SignedAmountText, formatMoney, formatMonth, signedAmountTextToMinor, signedMinorText } from '../format';

/** How many months (up to the current one) the form offers and lists. */
export const EBITDA_MONTHS = 24;

const EbitdaFormStruct = object({ month: Month, currency: enums(CURRENCIES), amount: SignedAmountText });

/** The `count` months up to `today`'s, newest first ('YYYY-MM'). */
export function recentMonths(today: string, count: number): string[] {
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7));
  return Array.from({ length: count }, (_, back) => {
    const index = year * 12 + (month - 1) - back;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

function capitalised(text: string, locale: string): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1);
}

export interface EbitdaFormProps {
  companyId: string;
  today: string;
  onSaved: () => void;
  /** The EBITDA calls (tests give their own); the app's transport by default. */
  transport?: EbitdaTransport;
}

export function EbitdaForm({ companyId, today, onSaved, transport }: EbitdaFormProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const months = useMemo(() => recentMonths(today, EBITDA_MONTHS), [today]);
  const newest = months[0] ?? today.slice(0, 7);
  const oldest = months[months.length - 1] ?? newest;
  const { rows, isOnline, save } = useEbitda(companyId, oldest, newest, transport);
  const [saved, setSaved] = useState<{ month: string; isCleared: boolean } | null>(null);
  const form = useForm({ struct: EbitdaFormStruct, initialValues: { month: months[1] ?? newest, currency: 'RUB', amount: '' }, messages: AMOUNT_MESSAGES });
  const monthOptions = useMemo(() => months.map((month) => ({ id: month, title: capitalised(formatMonth(intl, month), intl.locale) })), [months, intl]);
  const currencyOptions = useMemo(() => CURRENCIES.map((currency) => ({ id: currency, title: currency })), []);
  const separator = intl.locale.startsWith('en') ? '.' : ',';

  const submit = form.handleSubmit(async (value) => {
    if (!isOnline) throw new FormError({ isOffline: true });
    const parsed = signedAmountTextToMinor(value.amount);
    if (!parsed.ok) return;
    await save({ month: value.month, currency: value.currency, amountMinor: parsed.value });
    setSaved({ month: value.month, isCleared: false });
    form.setValues({ amount: '' });
    onSaved();
  });

  async function clear(row: EbitdaRow) {
    try {
      await save({ month: row.month, currency: row.currency, amountMinor: null });
      setSaved({ month: row.month, isCleared: true });
      onSaved();
    } catch (error) {
      if (error instanceof FormError) {
        await dialog.error(
          error.isOffline
            ? { content: intl.formatMessage({ id: 'form.error.offline', defaultMessage: 'The server cannot be reached. Check the connection and try again.' }) }
            : error.message === ''
              ? {}
              : { content: error.message },
        );
        return;
      }
      console.error(error);
      await dialog.error();
    }
  }

  return (
    <section className="dashboard-section ebitda" aria-labelledby="dashboard-ebitda-title" data-section="ebitda">
      <h2 className="dashboard-section__title" id="dashboard-ebitda-title">
        <FormattedMessage id="dashboard.ebitda.title" defaultMessage="EBITDA by month" />
      </h2>
      <p className="dashboard__text ebitda__lead">
        <FormattedMessage
          id="dashboard.ebitda.lead"
          defaultMessage="The share of EBITDA on the dashboard is the expected effect divided by the EBITDA entered here for the period's months."
        />
      </p>
      {!isOnline && (
        <p className="dashboard__note dashboard__note--calm" data-offline="">
          <FormattedMessage id="dashboard.ebitda.offline" defaultMessage="Entering EBITDA needs the connection: you are offline now. The form works again once you are back online." />
        </p>
      )}
      <form className="ebitda__form" noValidate onSubmit={submit} data-form="ebitda">
        <Select {...form.selectField('month', intl.formatMessage({ id: 'dashboard.ebitda.month', defaultMessage: 'Month' }))} options={monthOptions} />
        <Select {...form.selectField('currency', intl.formatMessage({ id: 'dashboard.ebitda.currency', defaultMessage: 'Currency' }))} options={currencyOptions} />
        <TextField
          {...form.textField('amount', intl.formatMessage({ id: 'dashboard.ebitda.amount', defaultMessage: 'EBITDA' }))}
          inputMode="decimal"
          autoComplete="off"
          maxLength={24}
          tip={intl.formatMessage({ id: 'dashboard.ebitda.amountTip', defaultMessage: 'A loss is entered with a minus: -350000.' })}
        />
        <div className="ebitda__actions">
          <Button type="submit" loading={form.isSubmitting} disabled={!isOnline}>
            <FormattedMessage id="dashboard.ebitda.save" defaultMessage="Save" />
          </Button>
        </div>
      </form>
      {saved !== null && (
        <p className="dashboard__note" role="status" data-saved={saved.month}>
          {saved.isCleared ? (
            <FormattedMessage id="dashboard.ebitda.cleared" defaultMessage="EBITDA of {month} cleared." values={{ month: formatMonth(intl, saved.month) }} />
          ) : (
            <FormattedMessage id="dashboard.ebitda.saved" defaultMessage="EBITDA of {month} saved." values={{ month: formatMonth(intl, saved.month) }} />
          )}
        </p>
      )}
      {rows === null && (
        <p className="dashboard__note">
          <FormattedMessage id="dashboard.ebitda.loadFailed" defaultMessage="The months entered could not be loaded. Reload the page to try again." />
        </p>
      )}
      {rows && rows.length === 0 && (
        <p className="dashboard__note" data-empty="ebitda">
          <FormattedMessage id="dashboard.ebitda.none" defaultMessage="No EBITDA entered for the last 24 months." />
        </p>
      )}
      {rows && rows.length > 0 && (
        <div className="ebitda__table">
          <table className="dashboard-table" data-testid="dashboard-ebitda-months">
            <caption>
              <FormattedMessage id="dashboard.ebitda.entered" defaultMessage="Months entered" />
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <FormattedMessage id="dashboard.ebitda.month" defaultMessage="Month" />
                </th>
                <th scope="col">
                  <FormattedMessage id="dashboard.ebitda.amount" defaultMessage="EBITDA" />
                </th>
                <th scope="col">
                  <span className="visually-hidden">
                    <FormattedMessage id="dashboard.ebitda.actions" defaultMessage="Actions" />
                  </span>
                </th>
              </tr>
            </thead>
            <tbody>
              {[...rows]
                .sort((a, b) => b.month.localeCompare(a.month) || a.currency.localeCompare(b.currency))
                .map((row) => (
                  <tr key={`${row.month}|${row.currency}`} data-month={row.month} data-currency={row.currency}>
                    <th scope="row">{capitalised(formatMonth(intl, row.month), intl.locale)}</th>
                    <td>{formatMoney(intl, row.amountMinor, row.currency)}</td>
                    <td className="ebitda__row-actions">
                      <Button
                        variant="secondary"
                        disabled={!isOnline}
                        aria-label={intl.formatMessage(
                          { id: 'dashboard.ebitda.changeLabel', defaultMessage: 'Change the EBITDA of {month}, {currency}' },
                          { month: formatMonth(intl, row.month), currency: row.currency },
                        )}
                        onClick={() => form.setValues({ month: row.month, currency: row.currency, amount: signedMinorText(row.amountMinor, separator) })}
                      >
                        <FormattedMessage id="dashboard.ebitda.change" defaultMessage="Change" />
                      </Button>
                      <Button
                        variant="secondary"
                        disabled={!isOnline}
                        aria-label={intl.formatMessage(
                          { id: 'dashboard.ebitda.clearLabel', defaultMessage: 'Clear the EBITDA of {month}, {currency}' },
                          { month: formatMonth(intl, row.month), currency: row.currency },
                        )}
                        onClick={() => void clear(row)}
                      >
                        <FormattedMessage id="dashboard.ebitda.clear" defaultMessage="Clear" />
                      </Button>
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
