// A form-only field rule, kept apart from validation.ts so the sign-in route (which loads validation.ts) does
// not carry it.
import { type Struct, dynamic, refine, string } from 'superstruct';

/**
 * A form's text that must be filled in: `required` while empty (blank), then `struct`'s own codes (a date that is
 * no date is `invalid`). A person who left a field empty is told to fill it in, not that it is wrong.
 */
export const filled = (struct: Struct<string, null>): Struct<string, null> =>
  dynamic<string>((value) => (typeof value === 'string' && value.trim().length === 0 ? BLANK : struct));

/** What an empty required field answers. */
const BLANK = refine(string(), 'required', () => false);
