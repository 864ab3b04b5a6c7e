// The small parts every registry screen shows: money, moments, a registry's name and status in words, its
// "waiting to be sent" mark, and the two tables (a registry's projects, its totals per currency). The tables are
// real tables for screen readers; on a phone (registry.css) each row becomes a card whose cells carry their
// column's name.
import type { ReactNode } from 'react';
import { FormattedDate, FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'wouter';
import { paths } from '../../../domain/paths';
import type { CurrencyTotals, RegistryItem, RegistryStatus } from '../../../domain/registry';
import type { OutboxStatus } from '../../../lib/db/database';
import { UNNUMBERED } from '../store';
import { formatMoney } from './registry-format';

/** An amount in minor units, in its currency. */
export function MoneyText({ amountMinor, currency }: { amountMinor: number; currency: string }) {
  const intl = useIntl();
  return <span className="registry-money">{formatMoney(intl, amountMinor, currency)}</span>;
}

/** An instant (ISO string) as a date and time in the user's language. */
export function MomentText({ at }: { at: string }) {
  return (
    <time dateTime={at}>
      <FormattedDate value={new Date(at)} day="2-digit" month="2-digit" year="numeric" hour="2-digit" minute="2-digit" />
    </time>
  );
}

/** The values of a message saying "Registry{hasNumber, select, yes { No. {number}} other {}}". */
export function numberValues(number: number): { number: number; hasNumber: 'yes' | 'no' } {
  return { number, hasNumber: number === UNNUMBERED ? 'no' : 'yes' };
}

/** "Registry No. 3", or, for a send the server has not numbered yet, "New registry, waiting to be sent". */
export function RegistryName({ number }: { number: number }) {
  return number === UNNUMBERED ? (
    <FormattedMessage id="registry.name.unnumbered" defaultMessage="New registry, waiting to be sent" />
  ) : (
    <FormattedMessage id="registry.name.numbered" defaultMessage="Registry No. {number}" values={{ number }} />
  );
}

export function RegistryStatusText({ status }: { status: RegistryStatus }) {
  return (
    <FormattedMessage
      id="registry.status"
      defaultMessage="{status, select, OPEN {Open} SENT {With the owner, awaiting the decision} APPROVED {Approved by the owner} RETURNED {Returned by the owner} other {Unknown}}"
      values={{ status }}
    />
  );
}

export function RegistryStatusBadge({ status }: { status: RegistryStatus }) {
  return (
    <span className={`registry-status registry-status--${status.toLowerCase()}`} data-status={status}>
      <RegistryStatusText status={status} />
    </span>
  );
}

/** The visible mark of a registry with a change the server has not taken yet (or refused). */
export function UnsentMark({ state }: { state: OutboxStatus }) {
  const isStuck = state === 'conflict' || state === 'failed';
  return (
    <span className={`registry-unsent${isStuck ? ' registry-unsent--stuck' : ''}`} data-unsent={state}>
      {isStuck ? (
        <Link href={paths.unsent}>
          <FormattedMessage id="registry.unsent.stuck" defaultMessage="Not sent: see Unsent" />
        </Link>
      ) : (
        <FormattedMessage id="registry.unsent.waiting" defaultMessage="Waiting to be sent" />
      )}
    </span>
  );
}

/** Whether the server has the change, for the result pages (offline: saved on this device, sent later). */
export function SentState({ unsent }: { unsent: OutboxStatus | null }) {
  if (unsent === null) {
    return (
      <p className="registry-result__state" data-state="sent">
        <FormattedMessage id="registry.result.sent" defaultMessage="The server has it." />
      </p>
    );
  }
  if (unsent === 'conflict' || unsent === 'failed') {
    return (
      <p className="registry-result__state registry-result__state--stuck" data-state="stuck">
        <FormattedMessage id="registry.result.stuck" defaultMessage="The server did not take it: open Unsent to see why." />
      </p>
    );
  }
  return (
    <p className="registry-result__state" data-state="waiting">
      <FormattedMessage id="registry.result.waiting" defaultMessage="Saved on this device; it will be sent when the connection returns." />
    </p>
  );
}

/** A cell that names its column on a phone (where rows become cards). */
function Cell({ label, children, name }: { label: string; children: ReactNode; name?: string }) {
  return (
    <td data-label={label} data-field={name}>
      {children}
    </td>
  );
}

export interface ItemsTableProps {
  items: readonly RegistryItem[];
  caption: ReactNode;
  /** Shows the final cost of each project with the reason of its adjustment (an adjusted registry). */
  showFinal?: boolean;
  /** The project's name, as a link where it leads somewhere. */
  renderName?: (item: RegistryItem) => ReactNode;
}

/**
 * A registry's projects: name, project manager, currency, estimated costs, (the final cost with the reason of its
 * adjustment,) 12-month effect, remuneration.
 */
export function ItemsTable({ items, caption, showFinal = false, renderName }: ItemsTableProps) {
  const intl = useIntl();
  const label = {
    name: intl.formatMessage({ id: 'registry.column.project', defaultMessage: 'Project' }),
    manager: intl.formatMessage({ id: 'registry.column.manager', defaultMessage: 'Project manager' }),
    currency: intl.formatMessage({ id: 'registry.column.currency', defaultMessage: 'Currency' }),
    costs: intl.formatMessage({ id: 'registry.column.estimatedCosts', defaultMessage: 'Estimated costs' }),
    effect: intl.formatMessage({ id: 'registry.column.effect', defaultMessage: 'Effect over 12 months' }),
    remuneration: intl.formatMessage({ id: 'registry.column.remuneration', defaultMessage: 'Remuneration' }),
    final: intl.formatMessage({ id: 'registry.column.finalCost', defaultMessage: 'Final cost' }),
  };
  const unknown = intl.formatMessage({ id: 'registry.unknownManager', defaultMessage: 'Not named' });
  const noReason = intl.formatMessage({ id: 'registry.noAdjustment', defaultMessage: 'Not adjusted' });
  return (
    <div className="registry-table-wrap">
      <table className="registry-table">
        <caption className="registry-table__caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{label.name}</th>
            <th scope="col">{label.manager}</th>
            <th scope="col">{label.currency}</th>
            <th scope="col" className="registry-table__number">
              {label.costs}
            </th>
            {showFinal && (
              <th scope="col" className="registry-table__number">
                {label.final}
              </th>
            )}
            <th scope="col" className="registry-table__number">
              {label.effect}
            </th>
            <th scope="col" className="registry-table__number">
              {label.remuneration}
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.projectId} data-project={item.projectId}>
              <th scope="row" className="registry-table__name">
                {renderName ? renderName(item) : item.name}
              </th>
              <Cell label={label.manager} name="manager">
                {item.projectManagerName ?? unknown}
              </Cell>
              <Cell label={label.currency} name="currency">
                {item.currency}
              </Cell>
              <Cell label={label.costs} name="estimatedCosts">
                <MoneyText amountMinor={item.estimatedCostsMinor} currency={item.currency} />
              </Cell>
              {showFinal && (
                <Cell label={label.final} name="finalCost">
                  <span className="registry-table__final">
                    <MoneyText amountMinor={item.finalCostMinor ?? item.estimatedCostsMinor} currency={item.currency} />
                    <span className="registry-table__reason" data-field="reason">
                      {item.adjustmentReason === null ? noReason : intl.formatMessage({ id: 'registry.adjustmentReason', defaultMessage: 'Reason: {reason}' }, { reason: item.adjustmentReason })}
                    </span>
                  </span>
                </Cell>
              )}
              <Cell label={label.effect} name="effect">
                <MoneyText amountMinor={item.expectedEffect12mMinor} currency={item.currency} />
              </Cell>
              <Cell label={label.remuneration} name="remuneration">
                <MoneyText amountMinor={item.remunerationMinor} currency={item.currency} />
              </Cell>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface TotalsTableProps {
  totals: readonly CurrencyTotals[];
  caption: ReactNode;
  /** Shows the final costs beside the estimated ones. */
  showFinal?: boolean;
}

/** The totals per currency (sums of different currencies are never added). */
export function TotalsTable({ totals, caption, showFinal = false }: TotalsTableProps) {
  const intl = useIntl();
  const label = {
    currency: intl.formatMessage({ id: 'registry.column.currency', defaultMessage: 'Currency' }),
    projects: intl.formatMessage({ id: 'registry.column.projects', defaultMessage: 'Projects' }),
    costs: intl.formatMessage({ id: 'registry.column.estimatedCosts', defaultMessage: 'Estimated costs' }),
    final: intl.formatMessage({ id: 'registry.column.finalCosts', defaultMessage: 'Final costs' }),
    effect: intl.formatMessage({ id: 'registry.column.effect', defaultMessage: 'Effect over 12 months' }),
    remuneration: intl.formatMessage({ id: 'registry.column.remuneration', defaultMessage: 'Remuneration' }),
  };
  return (
    <div className="registry-table-wrap">
      <table className="registry-table registry-table--totals">
        <caption className="registry-table__caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{label.currency}</th>
            <th scope="col" className="registry-table__number">
              {label.projects}
            </th>
            <th scope="col" className="registry-table__number">
              {label.costs}
            </th>
            {showFinal && (
              <th scope="col" className="registry-table__number">
                {label.final}
              </th>
            )}
            <th scope="col" className="registry-table__number">
              {label.effect}
            </th>
            <th scope="col" className="registry-table__number">
              {label.remuneration}
            </th>
          </tr>
        </thead>
        <tbody>
          {totals.map((total) => (
            <tr key={total.currency} data-currency={total.currency}>
              <th scope="row" className="registry-table__name">
                {total.currency}
              </th>
              <Cell label={label.projects} name="projects">
                {intl.formatNumber(total.projects)}
              </Cell>
              <Cell label={label.costs} name="estimatedCosts">
                <MoneyText amountMinor={total.estimatedCostsMinor} currency={total.currency} />
              </Cell>
              {showFinal && (
                <Cell label={label.final} name="finalCosts">
                  <MoneyText amountMinor={total.finalCostsMinor} currency={total.currency} />
                </Cell>
              )}
              <Cell label={label.effect} name="effect">
                <MoneyText amountMinor={total.expectedEffect12mMinor} currency={total.currency} />
              </Cell>
              <Cell label={label.remuneration} name="remuneration">
                <MoneyText amountMinor={total.remunerationMinor} currency={total.currency} />
              </Cell>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
