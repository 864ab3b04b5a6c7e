// Titles of the admin's verification review. The legal forms and verification states use the same message
// ids as the company screens (one translation each), declared here because a feature does not import another.
import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { LegalForm, VerificationStatus } from '../../domain/company';
import type { AdminStatusFilter } from './hooks';

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

export const statusFilterMessages: Record<AdminStatusFilter, MessageDescriptor> = defineMessages({
  PAYMENT_REPORTED: { id: 'profile.admin.filter.PAYMENT_REPORTED', defaultMessage: 'Waiting for review' },
  VERIFIED: { id: 'profile.admin.filter.VERIFIED', defaultMessage: 'Verified' },
  REJECTED: { id: 'profile.admin.filter.REJECTED', defaultMessage: 'Rejected' },
  UNVERIFIED: { id: 'profile.admin.filter.UNVERIFIED', defaultMessage: 'Not paid yet' },
  all: { id: 'profile.admin.filter.all', defaultMessage: 'All companies' },
});
