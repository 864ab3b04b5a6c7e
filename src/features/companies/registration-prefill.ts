// What the first "Add company" starts with (issue 14: registration asks for the company's name and INN, then the
// company form started empty). The server keeps both on the account at registration (`GET /user` answers them as
// `company`), so they survive the e-mail confirmation, a sign-in on another page load or another device, and
// nothing of them needs keeping on the device. They are offered only while the user has no company: once the
// company is created (or the user joined one by invitation, whose registration names the inviting company), the
// form starts empty.
import { COMPANY_NAME_MAX, type LegalForm } from '../../domain/company';
import type { CurrentUser } from '../../domain/user';

export interface RegistrationPrefill {
  legalForm: LegalForm;
  name: string;
  /** '' when the registration's INN is not one the form could take (it is then left for the user to type). */
  inn: string;
}

/** The registration's company details for the company form, or null when there is nothing to offer. */
export function registrationPrefillOf(user: Pick<CurrentUser, 'company' | 'companies'>): RegistrationPrefill | null {
  if ((user.companies?.length ?? 0) > 0 || !user.company) return null;
  const name = user.company.name.trim().slice(0, COMPANY_NAME_MAX);
  const typedInn = user.company.inn?.trim() ?? '';
  const inn = /^\d{10}(\d{2})?$/.test(typedInn) ? typedInn : '';
  if (name === '' && inn === '') return null;
  // 12 digits are an individual entrepreneur's INN, 10 a legal entity's; the form checks the checksum for it.
  return { legalForm: inn.length === 12 ? 'ENTREPRENEUR' : 'LEGAL_ENTITY', name, inn };
}
