// Titles of the company choices and states, shared by the company screens.
import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { LegalForm, VerificationStatus } from '../../domain/company';

export const legalFormMessages: Record<LegalForm, MessageDescriptor> = defineMessages({
  LEGAL_ENTITY: { id: 'companies.legalForm.LEGAL_ENTITY', defaultMessage: 'Legal entity' },
  ENTREPRENEUR: { id: 'companies.legalForm.ENTREPRENEUR', defaultMessage: 'Individual entrepreneur' },
});

export const verificationStatusMessages: Record<VerificationStatus, MessageDescriptor> = defineMessages({
  UNVERIFIED: { id: 'companies.verification.status.UNVERIFIED', defaultMessage: 'Not verified' },
  PAYMENT_REPORTED: { id: 'companies.verification.status.PAYMENT_REPORTED', defaultMessage: 'Payment under review' },
  VERIFIED: { id: 'companies.verification.status.VERIFIED', defaultMessage: 'Verified' },
  REJECTED: { id: 'companies.verification.status.REJECTED', defaultMessage: 'Payment not confirmed' },
});
