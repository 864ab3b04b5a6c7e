// Auth input structs shared by the registration, sign-in and recovery forms and the main-service.
// Refinement names are the error codes (see validation.ts).

import {
  type Infer,
  enums,
  nullable,
  object,
  optional,
  refine,
  size,
  string,
  trimmed,
  union,
  literal,
  type Struct,
} from 'superstruct';
import { isValidInn } from './inn';
import { NotificationMailMode } from './user';

/** Role options of spec section 3 (registration). */
export const REGISTRATION_ROLES = ['OWNER', 'CEO', 'TOP_MANAGER', 'FIRST_LINE_MANAGER', 'MIDDLE_MANAGER'] as const;
export type RegistrationRole = (typeof REGISTRATION_ROLES)[number];

/** Every company role of DESIGN.md. */
export const COMPANY_ROLES = [
  'OWNER',
  'CEO',
  'TOP_MANAGER',
  'MIDDLE_MANAGER',
  'FIRST_LINE_MANAGER',
  'FINANCIAL_DIRECTOR',
  'FINANCIAL_SPECIALIST',
  'DIRECTION_MANAGER',
  'HR',
  'EMPLOYEE',
] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];

/** Positions offered at registration; OTHER asks for `otherPosition`. */
export const POSITIONS = [
  'OWNER',
  'GENERAL_DIRECTOR',
  'DEPUTY_DIRECTOR',
  'PRODUCTION_DIRECTOR',
  'FINANCIAL_DIRECTOR',
  'HR_DIRECTOR',
  'HR_SPECIALIST',
  'DEPARTMENT_HEAD',
  'OTHER',
] as const;
export type Position = (typeof POSITIONS)[number];

/** Main implementation goals offered at registration. */
export const IMPLEMENTATION_GOALS = [
  'COST_REDUCTION',
  'PRODUCTIVITY',
  'QUALITY',
  'SAFETY',
  'ENGAGEMENT',
  'OTHER',
] as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const required = (s: ReturnType<typeof string>) => refine(s, 'required', (v) => v.length > 0);

const name = size(required(trimmed(string())), 0, 100);

export const Email = refine(
  size(trimmed(string()), 0, 254),
  'email',
  (v) => v.length === 0 || /^[^\s@]{1,64}@(?=.{1,253}$)([A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,63}$/.test(v),
);
const RequiredEmail = refine(Email, 'required', (v) => v.length > 0);

export const Phone = refine(required(trimmed(string())), 'phone', (v) => /^\+?[\d\s()-]{10,20}$/.test(v) && v.replace(/\D/g, '').length >= 10 && v.replace(/\D/g, '').length <= 15);

export const Inn = refine(required(trimmed(string())), 'inn', isValidInn);

export const Password = refine(
  refine(string(), 'required', (v) => v.length > 0),
  'passwordLength',
  (v) => v.length >= PASSWORD_MIN && v.length <= PASSWORD_MAX,
);

const registrationFields = {
  firstName: name,
  lastName: name,
  middleName: optional(size(trimmed(string()), 0, 100)),
  position: enums(POSITIONS),
  otherPosition: optional(size(trimmed(string()), 0, 100)),
  company: size(required(trimmed(string())), 0, 200),
  inn: Inn,
  mainGoal: enums(IMPLEMENTATION_GOALS),
  phone: Phone,
  email: RequiredEmail,
  role: enums(REGISTRATION_ROLES),
  password: Password,
};

/** `otherPosition` is required when the position is OTHER. */
function withOtherPosition<T extends { position: string; otherPosition?: string | undefined }, S>(
  struct: Struct<T, S>,
) {
  return refine(struct, 'required', (v) =>
    v.position !== 'OTHER' || (v.otherPosition ?? '').length > 0 ? true : { path: ['otherPosition'], refinement: 'required', message: 'required' },
  );
}

export const RegistrationInput = withOtherPosition(object(registrationFields));
export type RegistrationInput = Infer<typeof RegistrationInput>;

/** HR registers without choosing a role (their role is HR) and without an implementation goal. */
const { role: _role, mainGoal: _goal, ...hrFields } = registrationFields;
export const HrRegistrationInput = withOtherPosition(object(hrFields));
export type HrRegistrationInput = Infer<typeof HrRegistrationInput>;

export const LoginInput = object({
  email: RequiredEmail,
  password: refine(size(string(), 0, PASSWORD_MAX), 'required', (v) => v.length > 0),
});
export type LoginInput = Infer<typeof LoginInput>;

export const EmailInput = object({ email: RequiredEmail });
export type EmailInput = Infer<typeof EmailInput>;

const Token = size(string(), 16, 256);

export const VerifyEmailInput = object({ token: Token });
export type VerifyEmailInput = Infer<typeof VerifyEmailInput>;

export const RecoveryConfirmInput = object({ token: Token, password: Password });
export type RecoveryConfirmInput = Infer<typeof RecoveryConfirmInput>;

export const Locale = union([literal('ru'), literal('en')]);
export type Locale = Infer<typeof Locale>;

/** Sign-out names the refresh token whose session (family) ends. */
export const LogoutInput = object({ refresh_token: size(string(), 1, 4096) });
export type LogoutInput = Infer<typeof LogoutInput>;

/** What a user may change about their own account settings. */
export const UserSettingsInput = object({ locale: Locale });
export type UserSettingsInput = Infer<typeof UserSettingsInput>;

/**
 * Body of `PATCH /user`: any subset of the user's language and the personal data given at registration,
 * validated by the same rules. An empty or null `middleName` clears it; the phone cannot be cleared.
 */
export const ProfilePatch = object({
  locale: optional(Locale),
  firstName: optional(name),
  lastName: optional(name),
  middleName: optional(nullable(size(trimmed(string()), 0, 100))),
  phone: optional(Phone),
  /** How notifications are mailed: each as it happens, or one daily digest (src/domain/notification.ts). */
  notificationMail: optional(NotificationMailMode),
});
export type ProfilePatch = Infer<typeof ProfilePatch>;

/** Body of `POST /user/password`: the current password proves it is the user; the new one follows the usual rule. */
export const PasswordChangeInput = object({
  currentPassword: refine(size(string(), 0, PASSWORD_MAX), 'required', (v) => v.length > 0),
  newPassword: Password,
});
export type PasswordChangeInput = Infer<typeof PasswordChangeInput>;
