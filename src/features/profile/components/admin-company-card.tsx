import { useRef, useState, type ReactNode } from 'react';
import { FormattedDate, FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { VERIFICATION_CURRENCY, type AdminCompany, type VerificationDecision } from '../../../domain/company';
import { Button } from '../../../ui/button';
import { useDialog } from '../../../ui/dialog';
import { Textarea } from '../../../ui/textarea';
import { useDecideVerification } from '../hooks';
import { legalFormMessages, verificationStatusMessages } from '../messages';

const COMMENT_MAX = 2000;

function Fact({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** The rejection comment inside the confirm dialog; it keeps its own text and reports every change. */
function CommentField({ initial, error, onChange }: { initial: string; error: string | undefined; onChange: (value: string) => void }) {
  const intl = useIntl();
  const [value, setValue] = useState(initial);
  return (
    <Textarea
      label={intl.formatMessage({ id: 'profile.admin.rejectComment', defaultMessage: 'Why is the payment not confirmed?' })}
      name="comment"
      value={value}
      required
      maxLength={COMMENT_MAX}
      rows={3}
      error={error}
      tip={intl.formatMessage({ id: 'profile.admin.rejectCommentTip', defaultMessage: 'The owners see this comment and get it by e-mail.' })}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

export interface AdminCompanyCardProps {
  company: AdminCompany;
  /** The company after the decision, as the server answered it. */
  onDecided: (company: AdminCompany) => void;
  /** The company was decided elsewhere meanwhile: the list should be fetched again. */
  onStale: () => void;
}

/** One company in the admin's review: its details, the payment, and "Confirm" / "Reject with a comment". */
export function AdminCompanyCard({ company, onDecided, onStale }: AdminCompanyCardProps) {
  const intl = useIntl();
  const dialog = useDialog();
  const decide = useDecideVerification();
  const [busy, setBusy] = useState<VerificationDecision['decision'] | null>(null);
  const comment = useRef('');
  const now = Date.now();
  const dueAt = company.reviewDueAt;
  const isOverdue = company.verificationStatus === 'PAYMENT_REPORTED' && dueAt !== null && Date.parse(dueAt) < now;

  const send = async (decision: VerificationDecision) => {
    setBusy(decision.decision);
    const outcome = await decide(company.id, decision);
    setBusy(null);
    if (outcome.ok) {
      onDecided(outcome.company);
      return;
    }
    await dialog.error(outcome.message === undefined ? {} : { content: outcome.message });
    if (outcome.isStale) onStale();
  };

  const confirmPayment = async () => {
    const isConfirmed = await dialog.confirm({
      title: intl.formatMessage({ id: 'profile.admin.confirmTitle', defaultMessage: 'Confirm the payment of {name}?' }, { name: company.name }),
      content: intl.formatMessage({
        id: 'profile.admin.confirmText',
        defaultMessage: 'Confirm only once the payment with invoice number {invoice} has arrived. The company becomes verified and its owners get an e-mail.',
      }, { invoice: company.invoiceNumber ?? '' }),
      confirmText: intl.formatMessage({ id: 'profile.admin.confirm', defaultMessage: 'Confirm the payment' }),
      closeText: intl.formatMessage({ id: 'profile.admin.cancel', defaultMessage: 'Cancel' }),
    });
    if (isConfirmed) await send({ decision: 'VERIFIED' });
  };

  const rejectPayment = async () => {
    comment.current = '';
    let error: string | undefined;
    // The dialog host has no field validation: an empty comment opens the dialog again with the error beside it.
    for (;;) {
      const isConfirmed = await dialog.confirm({
        title: intl.formatMessage({ id: 'profile.admin.rejectTitle', defaultMessage: 'Reject the payment of {name}?' }, { name: company.name }),
        content: <CommentField initial={comment.current} error={error} onChange={(value) => (comment.current = value)} />,
        confirmText: intl.formatMessage({ id: 'profile.admin.reject', defaultMessage: 'Reject' }),
        closeText: intl.formatMessage({ id: 'profile.admin.cancel', defaultMessage: 'Cancel' }),
      });
      if (!isConfirmed) return;
      const text = comment.current.trim();
      if (text !== '') {
        await send({ decision: 'REJECTED', comment: text });
        return;
      }
      error = intl.formatMessage({ id: 'profile.admin.rejectCommentRequired', defaultMessage: 'Write why the payment is rejected: the owners need to know.' });
    }
  };

  const isReported = company.verificationStatus === 'PAYMENT_REPORTED';
  return (
    <article className="admin-company" data-company-id={company.id} data-status={company.verificationStatus} aria-labelledby={`admin-company-${company.id}`}>
      <header className="admin-company__head">
        <h3 className="admin-company__name" id={`admin-company-${company.id}`}>
          {company.name}
        </h3>
        <span className={`admin-company__status admin-company__status--${company.verificationStatus.toLowerCase()}`}>
          {intl.formatMessage(verificationStatusMessages[company.verificationStatus])}
        </span>
      </header>
      <dl className="profile__facts admin-company__facts">
        <Fact term={<FormattedMessage id="companies.details.legalForm" defaultMessage="Legal form" />}>{intl.formatMessage(legalFormMessages[company.legalForm])}</Fact>
        <Fact term={<FormattedMessage id="companies.details.inn" defaultMessage="INN" />}>{company.inn}</Fact>
        {company.kpp && <Fact term={<FormattedMessage id="companies.details.kpp" defaultMessage="KPP" />}>{company.kpp}</Fact>}
        {(company.ownerName ?? company.ownerEmail) && (
          <Fact term={<FormattedMessage id="profile.admin.owner" defaultMessage="Owner" />}>
            {[company.ownerName, company.ownerEmail].filter(Boolean).join(' · ')}
          </Fact>
        )}
        <Fact term={<FormattedMessage id="companies.details.invoiceNumber" defaultMessage="Invoice number (payment reference)" />}>
          <span data-field="invoiceNumber">{company.invoiceNumber}</span>
        </Fact>
        {company.amountMinor !== null && (
          <Fact term={<FormattedMessage id="profile.admin.amount" defaultMessage="Amount" />}>
            <FormattedNumber value={company.amountMinor / 100} style="currency" currency={VERIFICATION_CURRENCY} />
          </Fact>
        )}
        {company.paymentReportedAt && (
          <Fact term={<FormattedMessage id="profile.admin.reportedAt" defaultMessage="Payment reported" />}>
            <FormattedDate value={company.paymentReportedAt} dateStyle="medium" timeStyle="short" />
          </Fact>
        )}
        {isReported && dueAt && (
          <Fact term={<FormattedMessage id="profile.admin.dueAt" defaultMessage="Review due by" />}>
            <FormattedDate value={dueAt} dateStyle="medium" />
            {isOverdue && (
              <span className="profile__badge profile__badge--warn" data-state="overdue">
                <FormattedMessage id="profile.admin.overdue" defaultMessage="overdue" />
              </span>
            )}
          </Fact>
        )}
        {company.verificationDecidedAt && (
          <Fact term={<FormattedMessage id="profile.admin.decidedAt" defaultMessage="Decided" />}>
            <FormattedDate value={company.verificationDecidedAt} dateStyle="medium" timeStyle="short" />
          </Fact>
        )}
        {company.verificationComment && (
          <Fact term={<FormattedMessage id="profile.admin.comment" defaultMessage="Comment" />}>{company.verificationComment}</Fact>
        )}
      </dl>
      {isReported && (
        <div className="admin-company__actions">
          <Button data-action="confirm-verification" loading={busy === 'VERIFIED'} disabled={busy !== null} onClick={() => void confirmPayment()}>
            <FormattedMessage id="profile.admin.confirm" defaultMessage="Confirm the payment" />
          </Button>
          <Button variant="danger" data-action="reject-verification" loading={busy === 'REJECTED'} disabled={busy !== null} onClick={() => void rejectPayment()}>
            <FormattedMessage id="profile.admin.reject" defaultMessage="Reject" />
          </Button>
        </div>
      )}
    </article>
  );
}
