// One way to run a superstruct struct on both sides and turn its failures into error codes.
// The codes are message ids under `error.validation.` in locales/*.json, so the client and the
// server show the same words in the same language.

import type { StructError } from 'superstruct';
import { type Struct } from 'superstruct';

export type FieldErrors = Record<string, string>;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/**
 * Validates `input` against `struct` (with coercion). Stops at the first failing rule of each field
 * and returns `{ field: code }`, where `code` is the refinement name (`email`, `inn`, `minLength`...)
 * or the type failure (`required` for a missing value, `unknown` for a field the struct does not know).
 */
export function validate<T, S>(struct: Struct<T, S>, input: unknown): Validated<T> {
  const [error, value] = struct.validate(input, { coerce: true });
  if (!error) return { ok: true, value: value };
  return { ok: false, errors: fieldErrors(error) };
}

export function fieldErrors(error: StructError): FieldErrors {
  const errors: FieldErrors = {};
  for (const failure of error.failures()) {
    const field = failure.path.length > 0 ? failure.path.join('.') : '_';
    if (field in errors) continue;
    errors[field] = failureCode(failure.type, failure.refinement, failure.value);
  }
  return errors;
}

function failureCode(type: string, refinement: string | undefined, value: unknown): string {
  if (refinement) return refinement;
  if (value === undefined || value === null || value === '') return 'required';
  if (type === 'never') return 'unknown';
  return 'invalid';
}
