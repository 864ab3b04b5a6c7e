// What a screen shows when a call to the main-service fails: one translation from HttpError (and from an
// answer that does not match its struct) to form errors or one sentence, shared by every feature.
import type { IntlShape } from 'react-intl';
import { FormError } from '../ui/form';
import { HttpError } from './http';

/** Thrown when the server's answer does not match its struct: the change happened, the pull will bring it. */
export class UnexpectedAnswerError extends Error {
  constructor(what: string) {
    super(`The server answered ${what} that does not match its struct`);
    this.name = 'UnexpectedAnswerError';
  }
}

/** A failed request as a form shows it: field errors beside the fields, the server's message, or "offline". */
export function toFormError(error: unknown): Error {
  if (error instanceof FormError) return error;
  if (!(error instanceof HttpError)) return error instanceof Error ? error : new Error(String(error));
  if (error.status === 0) return new FormError({ isOffline: true });
  return new FormError({ message: error.body?.message, fieldErrors: error.body?.errors ?? {} });
}

/** A failed action as one sentence in the user's language (the server's message when it sent one), for the error dialog. */
export function failureMessage(intl: IntlShape, error: unknown): string {
  if (error instanceof HttpError) {
    if (error.status === 0) return intl.formatMessage({ id: 'people.error.offline', defaultMessage: 'The server cannot be reached. Check the connection and try again.' });
    const parts = [error.body?.message ?? '', ...Object.values(error.body?.errors ?? {})].filter((part) => part !== '');
    if (parts.length > 0) return parts.join(' ');
  }
  if (error instanceof UnexpectedAnswerError) {
    return intl.formatMessage({ id: 'people.error.unexpectedAnswer', defaultMessage: 'The change was sent, but the answer could not be read. It will appear after the next sync.' });
  }
  console.error(error);
  return intl.formatMessage({ id: 'people.error.unknown', defaultMessage: 'Something went wrong. Try again.' });
}
