import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { amountTextToMinor, checkPayments, minorToAmountText, splitEvenly, type Payment } from '../../../domain/money';
import type { MemberView } from '../../../domain/permissions';
import { PROJECT_PAYMENTS_EDITABLE_STATUSES, isProjectLead, type Project } from '../../../domain/project';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { TextField } from '../../../ui/text-field';
import { payableEmployeeIds } from '../transition-store';
import type { ProjectActions } from './project-detail-hooks';
import { separatorOf } from './project-detail-format';
import { MoneyText } from './project-detail-parts';

export interface PayeeRow {
  employeeId: string;
  name: string;
  serviceNumber: string | null;
  role: string | null;
}

export type PaymentsDraftCheck =
  | { ok: true; payments: Payment[]; totalMinor: number }
  /** A typed amount that does not parse: the row index and the parser's code. */
  | { ok: false; code: 'amount'; index: number; amountCode: string }
  | { ok: false; code: 'exceedsRemuneration'; excessMinor: number };

/**
 * The payments a draft of typed amounts makes (an empty amount is no payment) and whether they stand against the
 * remuneration (checkPayments): what the table shows before anything is sent.
 */
export function checkPaymentsDraft(payees: readonly PayeeRow[], texts: Readonly<Record<string, string>>, remunerationMinor: number): PaymentsDraftCheck {
  const payments: Payment[] = [];
  for (const [index, payee] of payees.entries()) {
    const text = texts[payee.employeeId]?.trim() ?? '';
    if (text === '') continue;
    const parsed = amountTextToMinor(text);
    if (!parsed.ok) return { ok: false, code: 'amount', index, amountCode: parsed.code };
    payments.push({ employeeId: payee.employeeId, amountMinor: parsed.value });
  }
  const check = checkPayments(payments, remunerationMinor);
  if (check.ok) return { ok: true, payments, totalMinor: check.totalMinor };
  if (check.code === 'exceedsRemuneration') return { ok: false, code: 'exceedsRemuneration', excessMinor: check.excessMinor };
  // Rows come from distinct payees and parsed amounts are >= 0: no other refusal can happen.
  return { ok: false, code: 'amount', index: check.index, amountCode: check.code };
}

/** The manager and the team, as the table lists them (names as the project carries them, else from the device). */
export function payeesOf(project: Project, managerName: string | null): PayeeRow[] {
  const members = new Map(project.team.map((member) => [member.employeeId, member]));
  return payableEmployeeIds(project).map((employeeId) => {
    const member = members.get(employeeId);
    const isManager = employeeId === project.projectManagerEmployeeId;
    return {
      employeeId,
      name: member?.name ?? (isManager ? (managerName ?? '—') : '—'),
      serviceNumber: member?.serviceNumber ?? null,
      role: member?.role ?? null,
    };
  });
}

export interface ProjectPaymentsProps {
  project: Project;
  member: MemberView;
  actions: ProjectActions;
  managerName: string | null;
}

/**
 * The remuneration split among the team. The lead edits it while CALCULATED or APPROVED: amounts typed as text, an
 * even split, and the check against the remuneration shown before anything is sent ("exceeds the remuneration by
 * …"). Everyone else sees the table as it stands.
 */
export function ProjectPayments({ project, member, actions, managerName }: ProjectPaymentsProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const separator = separatorOf(intl);
  const payees = useMemo(() => payeesOf(project, managerName), [project, managerName]);
  const stored = useMemo(() => new Map(project.payments.map((payment) => [payment.employeeId, payment.amountMinor])), [project.payments]);
  const mayEdit = PROJECT_PAYMENTS_EDITABLE_STATUSES.includes(project.status) && project.remunerationMinor !== null && isProjectLead(member, project);
  const initialTexts = useMemo(() => {
    const texts: Record<string, string> = {};
    for (const payee of payees) {
      const amount = stored.get(payee.employeeId);
      texts[payee.employeeId] = amount === undefined ? '' : minorToAmountText(amount, separator);
    }
    return texts;
  }, [payees, stored, separator]);
  const [texts, setTexts] = useState<Record<string, string> | null>(null);
  const [saving, setSaving] = useState(false);
  const current = texts ?? initialTexts;
  const remuneration = project.remunerationMinor ?? 0;
  const draft = useMemo(() => checkPaymentsDraft(payees, current, remuneration), [payees, current, remuneration]);

  if (!mayEdit) {
    if (project.payments.length === 0) return null;
    return (
      <table className="project-table" data-table="payments">
        <thead>
          <tr>
            <th scope="col">
              <FormattedMessage id="projects.payments.person" defaultMessage="Team member" />
            </th>
            <th scope="col">
              <FormattedMessage id="projects.payments.amount" defaultMessage="Amount" />
            </th>
          </tr>
        </thead>
        <tbody>
          {payees
            .filter((payee) => stored.has(payee.employeeId))
            .map((payee) => (
              <tr key={payee.employeeId}>
                <td>{payee.name}</td>
                <td>
                  <MoneyText amountMinor={stored.get(payee.employeeId) ?? 0} currency={project.currency} />
                </td>
              </tr>
            ))}
        </tbody>
      </table>
    );
  }

  const splitEven = () => {
    const parts = splitEvenly(remuneration, payees.length);
    setTexts(Object.fromEntries(payees.map((payee, index) => [payee.employeeId, minorToAmountText(parts[index] ?? 0, separator)])));
  };

  const save = async () => {
    if (!draft.ok) return;
    setSaving(true);
    try {
      await actions.savePayments(project.id, draft.payments, member);
      setTexts(null);
    } catch (error) {
      await dialog.error(error instanceof Error && error.message !== '' ? { content: error.message } : {});
    } finally {
      setSaving(false);
    }
  };

  const amountError = (index: number): string | undefined => {
    if (draft.ok || draft.code !== 'amount' || draft.index !== index) return undefined;
    if (draft.amountCode === 'amountPrecision') return intl.formatMessage({ id: 'projects.amount.precision', defaultMessage: 'At most 2 digits after the decimal point.' });
    if (draft.amountCode === 'amountRange') return intl.formatMessage({ id: 'projects.amount.range', defaultMessage: 'This amount is too large.' });
    return intl.formatMessage({ id: 'projects.amount.invalid', defaultMessage: 'Type an amount, such as 1250 or 1250,50.' });
  };

  return (
    <form
      className="project-payments"
      noValidate
      data-form="payments"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <ul className="project-payments__list">
        {payees.map((payee, index) => (
          <li key={payee.employeeId} className="project-payments__row">
            <TextField
              name={`payment-${payee.employeeId}`}
              label={
                payee.serviceNumber
                  ? intl.formatMessage({ id: 'projects.payments.payeeNumbered', defaultMessage: '{name} (No. {number})' }, { name: payee.name, number: payee.serviceNumber })
                  : payee.name
              }
              value={current[payee.employeeId] ?? ''}
              onChange={(value) => setTexts({ ...current, [payee.employeeId]: value })}
              inputMode="decimal"
              autoComplete="off"
              error={amountError(index)}
            />
          </li>
        ))}
      </ul>
      {draft.ok ? (
        <p className="project-payments__check" role="status" data-check="ok">
          <FormattedMessage
            id="projects.payments.total"
            defaultMessage="Paid out {total} of {remuneration}."
            values={{ total: <MoneyText amountMinor={draft.totalMinor} currency={project.currency} />, remuneration: <MoneyText amountMinor={remuneration} currency={project.currency} /> }}
          />
        </p>
      ) : (
        draft.code === 'exceedsRemuneration' && (
          <p className="project-payments__check project-payments__check--bad" role="alert" data-check="exceeds">
            <FormattedMessage
              id="projects.payments.exceedsBy"
              defaultMessage="The payments exceed the remuneration by {amount}."
              values={{ amount: <MoneyText amountMinor={draft.excessMinor} currency={project.currency} /> }}
            />
          </p>
        )
      )}
      <div className="project-detail__actions">
        <Button type="submit" loading={saving} disabled={!draft.ok || texts === null} data-action="payments-save">
          <FormattedMessage id="projects.payments.save" defaultMessage="Save the payments" />
        </Button>
        <Button variant="secondary" onClick={splitEven} disabled={saving || payees.length === 0} data-action="payments-split">
          <FormattedMessage id="projects.payments.split" defaultMessage="Split evenly" />
        </Button>
      </div>
    </form>
  );
}
