// The current user as `GET /user` returns it (spec section 3, "Current user") and the app config
// built from `GET /enums` and `GET /units`. The client checks answers with these structs on read.

import { type Infer, array, boolean, enums, nullable, object, optional, record, string, type, unknown } from 'superstruct';

/**
 * How a user's notifications are mailed (issue 11, src/domain/notification.ts): each as it happens, or one daily
 * digest. Here rather than in notification.ts, so the sign-in route's code (which reads the current user) does
 * not bring the proposal structs along.
 */
export const NOTIFICATION_MAIL_MODES = ['instant', 'digest'] as const;
export type NotificationMailMode = (typeof NOTIFICATION_MAIL_MODES)[number];
/** The profile's mail setting (`PATCH /user`'s `notificationMail`). */
export const NotificationMailMode = enums(NOTIFICATION_MAIL_MODES);

export const Authority = type({ authority: string() });

export const CurrentUser = type({
  id: string(),
  email: string(),
  telephone: nullable(string()),
  hrInviterData: nullable(unknown()),
  department: nullable(unknown()),
  company: nullable(type({ name: string(), inn: nullable(string()) })),
  fullName: string(),
  firstName: string(),
  lastName: string(),
  middleName: nullable(string()),
  position: nullable(string()),
  otherPosition: nullable(string()),
  mainGoal: nullable(string()),
  role: string(),
  email_verified_at: nullable(string()),
  active: boolean(),
  username: string(),
  authorities: array(Authority),
  emailVerified: boolean(),
  accountNonExpired: boolean(),
  accountNonLocked: boolean(),
  credentialsNonExpired: boolean(),
  enabled: boolean(),
  locale: enums(['ru', 'en']),
  /** How notifications are mailed (issue 11); optional, so an answer of an older server still passes. */
  notificationMail: optional(enums(NOTIFICATION_MAIL_MODES)),
  /** The companies the user is a member of, with their roles there (which companies to pull). */
  companies: optional(array(type({ id: string(), name: string(), roles: array(string()) }))),
});
export type CurrentUser = Infer<typeof CurrentUser>;

export const UNIT_TYPES = ['BASE_INDICATOR', 'CURRENCY'] as const;
/** The units of type BASE_INDICATOR (`GET /units`): what a goal's indicator and a project's metrics are measured in. */
export const BASE_INDICATOR_UNITS = ['MINUTES', 'HOURS', 'DAYS'] as const;

export const Unit = type({ id: string(), title: string(), type: string() });
export type Unit = Infer<typeof Unit>;

export const EnumOption = type({ id: string(), title: string() });
export type EnumOption = Infer<typeof EnumOption>;

/** `GET /enums` answers `{ data: EnumsData }`. */
export const EnumsData = object({
  enums: record(string(), array(EnumOption)),
  supportLink: string(),
});
export type EnumsData = Infer<typeof EnumsData>;

/** App config of spec section 3: only BASE_INDICATOR units are kept. */
export type AppConfig = { units: Unit[]; enums: EnumsData['enums']; supportLink: string };

export function buildAppConfig(enumsData: EnumsData, units: readonly Unit[]): AppConfig {
  return {
    units: units.filter((u) => u.type === 'BASE_INDICATOR'),
    enums: enumsData.enums,
    supportLink: enumsData.supportLink,
  };
}

export function hasAuthority(user: Pick<CurrentUser, 'authorities'>, authority: string): boolean {
  return user.authorities.some((a) => a.authority === authority);
}

// Token pair answered by sign-in and refresh (spec section 7 and DESIGN.md).
export const TokenPair = type({ access_token: string(), refresh_token: string() });
export type TokenPair = Infer<typeof TokenPair>;

export const ApiErrorBody = type({ message: string(), errors: optional(record(string(), string())) });
export type ApiErrorBody = Infer<typeof ApiErrorBody>;

/** `GET /health` answers `{ data: { status: 'ok' }, message }`: extra keys (the `message` every answer carries) are allowed. */
export const Health = type({ data: type({ status: string() }) });
