import type { ReactNode } from 'react';
import { FormattedMessage, FormattedNumber, useIntl } from 'react-intl';
import { VERIFICATION_AMOUNT_MINOR, VERIFICATION_CURRENCY } from '../../../domain/company';
import type { CompanyRow } from '../../../domain/suggestion';
import { describeTimeZone } from '../../../domain/time-format';
import { legalFormMessages, verificationStatusMessages } from '../messages';
import { companyTimeZoneOf, invoiceDateOf } from '../time-zone';
import { verificationStatusOf } from '../verification';

function Fact({ term, children }: { term: ReactNode; children: ReactNode }) {
  return (
    <>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </>
  );
}

/** The state of verification as a coloured badge. */
export function VerificationBadge({ company }: { company: Pick<CompanyRow, 'verificationStatus'> }) {
  const intl = useIntl();
  const status = verificationStatusOf(company);
  return (
    <span className={`verification-badge verification-badge--${status.toLowerCase().replace('_', '-')}`} data-status={status}>
      {intl.formatMessage(verificationStatusMessages[status])}
    </span>
  );
}

/**
 * The company's details as the invoice names them, with the invoice number, its date (in the company's time zone,
 * the very text of the PDF) and the amount to pay; and the zone the company's dates are given in.
 */
export function CompanyDetails({ company, withPayment = false }: { company: CompanyRow; withPayment?: boolean }) {
  const intl = useIntl();
  const none = <FormattedMessage id="companies.details.none" defaultMessage="not given" />;
  return (
    <dl className="company-details">
      <Fact term={<FormattedMessage id="companies.details.name" defaultMessage="Company" />}>{company.name}</Fact>
      <Fact term={<FormattedMessage id="companies.details.legalForm" defaultMessage="Legal form" />}>
        {intl.formatMessage(legalFormMessages[company.legalForm])}
      </Fact>
      <Fact term={<FormattedMessage id="companies.details.inn" defaultMessage="INN" />}>{company.inn ?? none}</Fact>
      {company.legalForm === 'LEGAL_ENTITY' && (
        <Fact term={<FormattedMessage id="companies.details.kpp" defaultMessage="KPP" />}>{company.kpp ?? none}</Fact>
      )}
      {withPayment && (
        <>
          <Fact term={<FormattedMessage id="companies.details.invoiceNumber" defaultMessage="Invoice number (payment reference)" />}>
            <span data-field="invoiceNumber">{company.invoiceNumber ?? none}</span>
          </Fact>
          <Fact term={<FormattedMessage id="companies.details.invoiceDate" defaultMessage="Invoice date" />}>
            <span data-field="invoiceDate">{invoiceDateOf(company)}</span>
          </Fact>
          <Fact term={<FormattedMessage id="companies.details.amount" defaultMessage="Amount to pay" />}>
            <FormattedNumber value={VERIFICATION_AMOUNT_MINOR / 100} style="currency" currency={VERIFICATION_CURRENCY} />
          </Fact>
        </>
      )}
      <Fact term={<FormattedMessage id="companies.details.timeZone" defaultMessage="Time zone" />}>
        <span data-field="timeZone">{describeTimeZone(companyTimeZoneOf(company))}</span>
      </Fact>
      <Fact term={<FormattedMessage id="companies.details.status" defaultMessage="Verification" />}>
        <VerificationBadge company={company} />
      </Fact>
    </dl>
  );
}
