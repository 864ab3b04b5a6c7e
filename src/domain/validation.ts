// One way to run a superstruct struct on both sides and turn its failures into error codes.
// The codes are message ids under `error.validation.` in locales/*.json, so the client and the
// server show the same words in the same language.
//
// What it guarantees: no text that `validate` accepts holds a character no person types and PostgreSQL
// may refuse or silently change. Refused in every string of the input (at any depth, and in object keys; a
// value the struct takes as it is, `unknown()`, is left to the struct of whoever reads it, as the push does):
// the C0 control characters U+0000–U+001F except tab, line feed and carriage return, DEL (U+007F), and
// unpaired UTF-16 surrogates (NUL makes PostgreSQL fail the statement; a lone surrogate cannot be encoded
// in UTF-8 and would be stored as U+FFFD). Tab, line feed and carriage return are kept only in text that may
// span lines (a struct built on `multilineText()`, such as a proposal's problem); in any other field they
// are refused inside the text, while around it they are simply trimmed away by the text structs. The field
// answers the code `controlCharacters`. The server applies the same rule to query strings and path
// parameters (server/http.ts), so no request reaches the database with such a character. An input nested
// deeper than MAX_INPUT_DEPTH is refused (`invalid`) before the struct runs, so validating never overflows.

import type { StructError } from 'superstruct';
import { Struct, define, refine, size, string, trimmed } from 'superstruct';

export type FieldErrors = Record<string, string>;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** The struct type of text that may span lines (see `multilineText`). */
export const MULTILINE_TEXT = 'multilineText';

/**
 * A string that may span lines: keeps tab, line feed and carriage return, which every other text refuses
 * inside it. Wrap it like `string()`: `size(trimmed(multilineText()), 0, 4000)`; `optional`, `nullable`,
 * `refine` and `size` keep the mark.
 */
export function multilineText(): Struct<string, null> {
  return define<string>(MULTILINE_TEXT, (value) => typeof value === 'string');
}

export type TextKind = 'singleLine' | 'multiline';

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

function isLineBreakOrTab(code: number): boolean {
  return code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;
}

/** Whether the character at `i` is refused in any text; its length (2 for a surrogate pair), or 0 if refused. */
function acceptedLength(value: string, i: number): number {
  const code = value.charCodeAt(i);
  if (code < 0x20) return isLineBreakOrTab(code) ? 1 : 0;
  if (code === 0x7f) return 0;
  if (code >= 0xd800 && code <= 0xdbff) {
    const next = value.charCodeAt(i + 1);
    return next >= 0xdc00 && next <= 0xdfff ? 2 : 0;
  }
  if (code >= 0xdc00 && code <= 0xdfff) return 0;
  return 1;
}

/** Whether `value` holds a character refused in `kind` of text (see the header). */
export function hasControlCharacters(value: string, kind: TextKind = 'singleLine'): boolean {
  for (let i = 0; i < value.length; ) {
    const length = acceptedLength(value, i);
    if (length === 0) return true;
    i += length;
  }
  if (kind === 'multiline') return false;
  // Surrounding whitespace is trimmed by the text structs, so a single-line field only minds what is inside.
  const inner = value.trim();
  for (let i = 0; i < inner.length; i++) if (isLineBreakOrTab(inner.charCodeAt(i))) return true;
  return false;
}

/**
 * `value` with every character refused in any text replaced by U+FFFD (tab and line breaks kept): for text
 * that is shown back to a person, as an import report shows the cells of a refused row, and must be storable.
 */
export function replaceControlCharacters(value: string): string {
  if (!hasControlCharacters(value, 'multiline')) return value;
  let out = '';
  for (let i = 0; i < value.length; ) {
    const length = acceptedLength(value, i);
    out += length === 0 ? '\ufffd' : value.slice(i, i + length);
    i += Math.max(length, 1);
  }
  return out;
}

/**
 * Validates `input` against `struct` (with coercion). Stops at the first failing rule of each field
 * and returns `{ field: code }`, where `code` is the refinement name (`email`, `inn`, `minLength`...),
 * the type failure (`required` for a missing value, `unknown` for a field the struct does not know), or
 * `controlCharacters` for text holding a refused character (see the header), which wins over the rest.
 */
export function validate<T, S>(struct: Struct<T, S>, input: unknown): Validated<T> {
  const { errors: refused, tooDeep } = inputErrors(struct, input);
  if (tooDeep) return { ok: false, errors: refused };
  const [error, value] = struct.validate(input, { coerce: true });
  if (error) return { ok: false, errors: { ...fieldErrors(error), ...refused } };
  if (Object.keys(refused).length > 0) return { ok: false, errors: refused };
  return { ok: true, value };
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

/** What the walk below reads of a struct: its kind and, for objects and arrays, the structs inside. */
type AnyStruct = Pick<Struct<unknown, unknown>, 'type' | 'schema'>;

/** The struct of `key` inside a value of `struct`, when the struct says (objects, `type`s and arrays). */
function childStruct(struct: AnyStruct | undefined, key: string | number): AnyStruct | undefined {
  if (!struct) return undefined;
  const schema: unknown = struct.schema;
  if (struct.type === 'array') return schema instanceof Struct ? schema : undefined;
  if ((struct.type === 'object' || struct.type === 'type') && typeof schema === 'object' && schema !== null && typeof key === 'string') {
    const field: unknown = Object.prototype.hasOwnProperty.call(schema, key) ? (schema as Record<string, unknown>)[key] : undefined;
    return field instanceof Struct ? field : undefined;
  }
  return undefined;
}

/** Where the struct names a text field, its kind decides (single-line unless `multilineText`). */
function kindOf(struct: AnyStruct | undefined): TextKind {
  return !struct || struct.type === MULTILINE_TEXT ? 'multiline' : 'singleLine';
}

/**
 * A value the struct takes as it is (`unknown()`, `any()`) is not looked into: whoever reads it validates it with
 * its own struct (a pushed operation's body is parsed by the operation's, so one bad operation is refused on its
 * own and the rest of the batch still runs).
 */
function isOpaque(struct: AnyStruct | undefined): boolean {
  return struct?.type === 'unknown' || struct?.type === 'any';
}

interface Visit {
  value: unknown;
  struct: AnyStruct | undefined;
  key: string | number | null;
  parent: Visit | null;
  depth: number;
  /** Inside a value the struct takes as it is: only its depth is looked at. */
  opaque: boolean;
}

/** The field name of a visited value, as superstruct names failure paths (`a.0.b`; `_` for the whole input). */
function fieldOf(visit: Visit): string {
  const path: (string | number)[] = [];
  for (let at: Visit | null = visit; at && at.key !== null; at = at.parent) path.push(at.key);
  return path.length > 0 ? path.reverse().join('.') : '_';
}

/**
 * No input of ours nests deeper than a few levels. Deeper values are refused before superstruct sees them: it
 * prints a failing value with `String(value)`, which for nested arrays recurses, so a body of a hundred
 * thousand nested brackets (well under the body limit) would overflow the stack.
 */
export const MAX_INPUT_DEPTH = 32;

/**
 * `{ field: 'controlCharacters' }` for every string (and object key) of `input` holding a refused character;
 * values whose place the struct does not describe (records, unions) are held to the multi-line rule. A value
 * nested deeper than MAX_INPUT_DEPTH is `{ field: 'invalid' }` and sets `tooDeep`. Walked with an explicit
 * stack and parent links, so a deeply nested body costs neither call stack nor a copy of its path per level.
 */
function inputErrors(struct: AnyStruct, input: unknown): { errors: FieldErrors; tooDeep: boolean } {
  const errors: FieldErrors = {};
  let tooDeep = false;
  const stack: Visit[] = [{ value: input, struct, key: null, parent: null, depth: 0, opaque: isOpaque(struct) }];
  const seen = new Set<object>();
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, opaque } = visit;
    if (typeof value === 'string') {
      if (!opaque && hasControlCharacters(value, kindOf(visit.struct))) errors[fieldOf(visit)] = 'controlCharacters';
      continue;
    }
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    if (visit.depth >= MAX_INPUT_DEPTH) {
      errors[fieldOf(visit)] = 'invalid';
      tooDeep = true;
      continue;
    }
    seen.add(value);
    const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((item: unknown, index) => [index, item]) : Object.entries(value);
    for (const [key, item] of entries) {
      if (!opaque && typeof key === 'string' && hasControlCharacters(key)) {
        errors[fieldOf(visit)] = 'controlCharacters';
        continue;
      }
      const child = opaque ? undefined : childStruct(visit.struct, key);
      stack.push({ value: item, struct: child, key, parent: visit, depth: visit.depth + 1, opaque: opaque || isOpaque(child) });
    }
  }
  return { errors, tooDeep };
}

/** Text that must hold something after trimming (`required`) and at most `max` characters (`size`). */
export const requiredText = (max: number, text: Struct<string, null> = string()) =>
  refine(size(refine(trimmed(text), 'required', (v) => v.length > 0), 0, max), 'size', () => true);

const CALENDAR_DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar date written 'YYYY-MM-DD' (no 2026-02-30). */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = CALENDAR_DATE_RE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A calendar date 'YYYY-MM-DD' (`invalid` otherwise). */
export const CalendarDate = refine(string(), 'invalid', (value) => isCalendarDate(value));

/**
 * Whether no id occurs twice, letter case aside (uuids). Safe on anything: superstruct runs a refinement even when
 * the elements failed their own struct, so an element may be a number or null here (compared as it is).
 */
export function areDistinctIds(values: readonly unknown[]): boolean {
  return new Set(values.map((value) => (typeof value === 'string' ? value.toLowerCase() : value))).size === values.length;
}
