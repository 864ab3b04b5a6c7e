// One error type for the whole service. Code throws `AppError(code, status)`; the error handler in
// app.ts turns it into `{ message, errors? }` with `message` read from `error.<code>` in the request's
// language. Codes, not English sentences, cross the code base.

import type { FieldErrors } from '../src/domain/validation';
import type { MessageValues } from './i18n/messages';

export interface AppErrorExtras {
  /** Field codes (`error.validation.<code>`), localized by the handler. */
  fieldErrors?: FieldErrors;
  /** ICU values for the message. */
  values?: MessageValues;
  /** Values that are themselves message ids, translated into the request's language and joined with ", ". */
  valueIds?: Record<string, readonly string[]>;
  headers?: Record<string, string>;
  /** A protocol string the client keys on (e.g. `Token Expired.`): sent as is, never translated. */
  literalMessage?: string;
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: string,
    readonly status: number,
    readonly extras: AppErrorExtras = {},
  ) {
    super(code);
  }
}

/** Exact text of spec section 8; the client refreshes the session when it sees it. */
export const TOKEN_EXPIRED_MESSAGE = 'Token Expired.';
