// The verification state of a company as the screens read it from the mirrored row (DESIGN.md, "State
// machines": UNVERIFIED -> PAYMENT_REPORTED -> VERIFIED | REJECTED; a rejected company may report again).
import { VERIFICATION_REVIEW_DAYS, VERIFICATION_STATUSES, type VerificationStatus } from '../../domain/company';
import type { CompanyRow } from '../../domain/suggestion';

const DAY_MS = 24 * 60 * 60 * 1000;

function isVerificationStatus(value: string): value is VerificationStatus {
  return (VERIFICATION_STATUSES as readonly string[]).includes(value);
}

/** The row's status; a value this build does not know reads as UNVERIFIED (nothing is promised for it). */
export function verificationStatusOf(company: Pick<CompanyRow, 'verificationStatus'>): VerificationStatus {
  return isVerificationStatus(company.verificationStatus) ? company.verificationStatus : 'UNVERIFIED';
}

/** When the admin's review of a payment reported at `paymentReportedAt` is due (5 days later), or null. */
export function reviewDueAt(paymentReportedAt: string | null | undefined): Date | null {
  if (!paymentReportedAt) return null;
  const reportedAt = Date.parse(paymentReportedAt);
  return Number.isNaN(reportedAt) ? null : new Date(reportedAt + VERIFICATION_REVIEW_DAYS * DAY_MS);
}

/** "I paid" is offered while the company is not verified and no report waits for review. */
export function canReportPaymentIn(status: VerificationStatus): boolean {
  return status === 'UNVERIFIED' || status === 'REJECTED';
}
