// Form state of the UI kit. Guarantees:
// - values are strings, converted by the form value rules of spec section 5 ('null' -> '',
//   'true' -> '1', 'false' -> '0');
// - required-ness and errors come from the form's superstruct struct, with the error codes of
//   src/domain/validation.ts, the same rules the main-service applies; each field shows the first
//   rule it fails, as `error.validation.<code>` with `{field}` = its label (fallback
//   `error.validation.fallback`);
// - validation runs on blur, on change (a committed choice) and on model update, never on input;
//   submitting validates every field and sends nothing while one fails;
// - a submit handler that throws a `FormError` gets its field errors shown beside the fields; any
//   other failure goes to the error dialog. The UI kit knows nothing of HTTP: features turn their
//   client's errors into `FormError` (plain data) in their hooks.

import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useIntl, type IntlShape, type MessageDescriptor } from 'react-intl';
import { Struct, type Context, type Failure, type StructError } from 'superstruct';
import { fieldErrors, validate, type FieldErrors, type Validated } from '../domain/validation';
import { useDialog } from './dialog';

export type FormValues = Record<string, string>;

/** The form value rule of spec section 5 for one value. */
export function toFormValue(value: unknown): string {
  if (value === null || value === undefined || value === 'null') return '';
  if (value === true || value === 'true') return '1';
  if (value === false || value === 'false') return '0';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.map(toFormValue).join(',');
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value);
}

/** The form value rules of spec section 5 for a whole model. */
export function toFormValues(model: Readonly<Record<string, unknown>>): FormValues {
  const values: FormValues = {};
  for (const [key, value] of Object.entries(model)) values[key] = toFormValue(value);
  return values;
}

/** Thrown by a submit handler to put the server's answer on the form. */
export class FormError extends Error {
  /** Messages per field, already in the user's language (the server localizes them). */
  readonly fieldErrors: Readonly<Record<string, string>>;
  /** Nothing answered: the dialog says so instead of a generic error. */
  readonly isOffline: boolean;

  constructor(options: { message?: string; fieldErrors?: Record<string, string>; isOffline?: boolean } = {}) {
    super(options.message ?? '');
    this.name = 'FormError';
    this.fieldErrors = options.fieldErrors ?? {};
    this.isOffline = options.isOffline ?? false;
  }
}

/**
 * What the form needs of a superstruct struct. Any object struct fits, and so does a choice between
 * two (`isHr ? HrRegistrationInput : RegistrationInput`), which `Struct<A> | Struct<B>` as a
 * `Struct<A | B>` would not (superstruct's refiner makes Struct invariant).
 */
export interface FormStruct<T> {
  readonly type: string;
  readonly schema: unknown;
  readonly coercer: (value: unknown, context: Context) => unknown;
  readonly refiner: (value: never, context: Context) => Iterable<Failure>;
  validate(value: unknown, options?: { coerce?: boolean }): [StructError, undefined] | [undefined, T];
}

/** validate() of src/domain/validation.ts for a FormStruct: coercion on, the same error codes. */
export function validateForm<T>(struct: FormStruct<T>, input: unknown): Validated<T> {
  const [error, value] = struct.validate(input, { coerce: true });
  if (error) return { ok: false, errors: fieldErrors(error) };
  return { ok: true, value };
}

type FieldStructs = Record<string, Struct<unknown, unknown>>;

function isFieldStructs(schema: unknown): schema is FieldStructs {
  return typeof schema === 'object' && schema !== null && Object.values(schema).every((s) => s instanceof Struct);
}

/** The fields of an object struct (also through `refine`, which keeps the schema). */
export function fieldsOf<T>(struct: FormStruct<T>): FieldStructs {
  return isFieldStructs(struct.schema) ? struct.schema : {};
}

/** A field is required when its struct refuses a missing value. */
export function requiredFieldsOf<T>(struct: FormStruct<T>): Set<string> {
  const required = new Set<string>();
  for (const [name, field] of Object.entries(fieldsOf(struct))) {
    if (!validate(field, undefined).ok) required.add(name);
  }
  return required;
}

/**
 * The model the struct sees: only its own fields; an empty optional field is absent rather than ''
 * (so an optional choice left empty is not an invalid choice).
 */
export function toModel<T>(struct: FormStruct<T>, values: FormValues): Record<string, string | undefined> {
  const required = requiredFieldsOf(struct);
  const model: Record<string, string | undefined> = {};
  for (const name of Object.keys(fieldsOf(struct))) {
    const value = values[name] ?? '';
    model[name] = value === '' && !required.has(name) ? undefined : value;
  }
  return model;
}

/**
 * Error codes per field. Superstruct runs an object's own refinements (rules across fields, such as
 * "other position is required when the position is OTHER") only once every field is valid; they are
 * run here on their own as well, so such a field shows its error when the user leaves it, not only
 * after everything else has been fixed.
 */
export function collectErrorCodes<T>(struct: FormStruct<T>, values: FormValues): FieldErrors {
  const model = toModel(struct, values);
  const result = validateForm(struct, model);
  if (result.ok) return {};
  return { ...crossFieldCodes(struct, model), ...result.errors };
}

function crossFieldCodes<T>(struct: FormStruct<T>, model: Record<string, string | undefined>): FieldErrors {
  const trimmed = Object.fromEntries(Object.entries(model).map(([k, v]) => [k, v?.trim()]));
  // The same struct without its field checks: only the refinements of the object itself remain.
  const refinementsOnly = new Struct<never, unknown>({ type: struct.type, schema: null, coercer: struct.coercer, refiner: struct.refiner });
  try {
    const result = validate(refinementsOnly, trimmed);
    return result.ok ? {} : result.errors;
  } catch (error) {
    // A refinement may rely on fields being valid; the full validation reports it once they are.
    console.debug('cross-field rules skipped until the fields are valid', error);
    return {};
  }
}

/**
 * The message for a failed rule (spec section 8): `error.validation.<code>` with `{field}` = the label;
 * a rule without a message of its own gets the default '{field} is not valid.', and a field without a
 * label the fallback 'Field is invalid'.
 */
export function formatValidationError(intl: IntlShape, code: string, label: string): string {
  const id = `error.validation.${code}`;
  const fieldLabel = label.trim();
  if (Object.hasOwn(intl.messages, id) && (fieldLabel !== '' || !messageNamesField(intl, id))) {
    return intl.formatMessage({ id }, { field: fieldLabel });
  }
  if (fieldLabel === '') return intl.formatMessage({ id: 'error.validation.fallback', defaultMessage: 'Field is invalid' });
  return intl.formatMessage({ id: 'error.validation.invalid', defaultMessage: '{field} is not valid.' }, { field: fieldLabel });
}

/** Whether a catalogue message puts the field's label in its text (a message without a label would read oddly). */
function messageNamesField(intl: IntlShape, id: string): boolean {
  const message = intl.messages[id];
  return typeof message === 'string' ? message.includes('{field}') : JSON.stringify(message).includes('"field"');
}

type ShownError = { code: string } | { message: string };

export interface TextFieldBinding {
  name: string;
  label: string;
  value: string;
  required: boolean;
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}

export type SelectFieldBinding = TextFieldBinding;

export interface UseFormOptions<T> {
  struct: FormStruct<T>;
  initialValues?: Readonly<Record<string, unknown>>;
  /** Messages for error codes of this form's own rules (e.g. `passwordMismatch`), with `{field}`. */
  messages?: Readonly<Record<string, MessageDescriptor>>;
}

export interface UseFormResult<T> {
  values: FormValues;
  /** The props of a TextField: typing does not validate, leaving the field does. */
  textField(name: string, label: string): TextFieldBinding;
  /** The props of a Select: a choice is a change and validates at once. */
  selectField(name: string, label: string): SelectFieldBinding;
  /** A model update from code: sets the values and validates those fields. */
  setValues(values: Readonly<Record<string, unknown>>): void;
  /** Shows messages (already localized) beside the fields, e.g. from the server. */
  setFieldErrors(errors: Readonly<Record<string, string>>): void;
  errorOf(name: string, label: string): string | undefined;
  isRequired(name: string): boolean;
  isSubmitting: boolean;
  /** The form's onSubmit: validates everything, then runs `onValid` with the validated value. */
  handleSubmit(onValid: (value: T) => Promise<void> | void): (event: FormEvent<HTMLFormElement>) => void;
}

export function useForm<T>({ struct, initialValues = {}, messages }: UseFormOptions<T>): UseFormResult<T> {
  const intl = useIntl();
  const dialog = useDialog();
  const [values, setValuesState] = useState<FormValues>(() => toFormValues(initialValues));
  const [errors, setErrors] = useState<Record<string, ShownError>>({});
  const [isSubmitting, setSubmitting] = useState(false);
  // Blur follows input within one event loop turn; the ref holds what was typed even if React has
  // not rendered it yet.
  const valuesRef = useRef(values);
  const touchedRef = useRef(new Set<string>());
  const submittingRef = useRef(false);

  const fields = useMemo(() => fieldsOf(struct), [struct]);
  const required = useMemo(() => requiredFieldsOf(struct), [struct]);

  const revalidate = useCallback(
    (names: readonly string[]) => {
      const codes = collectErrorCodes(struct, valuesRef.current);
      setErrors((previous) => {
        const next = { ...previous };
        for (const name of names) {
          const code = codes[name];
          if (code !== undefined) next[name] = { code };
          else delete next[name];
        }
        return next;
      });
    },
    [struct],
  );

  // A new struct (e.g. HR registration has no role) is a model change: fields already visited are
  // checked again under it, and errors of fields it does not have go away.
  useEffect(() => {
    revalidate([...touchedRef.current]);
  }, [revalidate]);

  const writeValues = useCallback((update: FormValues) => {
    valuesRef.current = { ...valuesRef.current, ...update };
    setValuesState(valuesRef.current);
  }, []);

  const errorOf = useCallback(
    (name: string, label: string): string | undefined => {
      const shown = errors[name];
      if (!shown) return undefined;
      if ('message' in shown) return shown.message;
      const own = messages?.[shown.code];
      return own ? intl.formatMessage(own, { field: label }) : formatValidationError(intl, shown.code, label);
    },
    [errors, intl, messages],
  );

  const bind = (name: string, label: string, validatesOnChange: boolean): TextFieldBinding => ({
    name,
    label,
    value: values[name] ?? '',
    required: required.has(name),
    error: errorOf(name, label),
    onChange: (value) => {
      writeValues({ [name]: value });
      if (validatesOnChange) {
        touchedRef.current.add(name);
        revalidate([name]);
      }
    },
    onBlur: () => {
      touchedRef.current.add(name);
      revalidate([name]);
    },
  });

  const setValues = useCallback(
    (update: Readonly<Record<string, unknown>>) => {
      writeValues(toFormValues(update));
      const names = Object.keys(update);
      for (const name of names) touchedRef.current.add(name);
      revalidate(names);
    },
    [revalidate, writeValues],
  );

  const setFieldErrors = useCallback((messages: Readonly<Record<string, string>>) => {
    setErrors((previous) => {
      const next = { ...previous };
      for (const [name, message] of Object.entries(messages)) next[name] = { message };
      return next;
    });
  }, []);

  const showFailure = useCallback(
    (failure: unknown, form: HTMLFormElement) => {
      if (failure instanceof FormError) {
        const placed: Record<string, string> = {};
        const unplaced: string[] = [];
        for (const [name, message] of Object.entries(failure.fieldErrors)) {
          if (name in fields) placed[name] = message;
          else unplaced.push(message);
        }
        setFieldErrors(placed);
        focusFirst(form, Object.keys(placed));
        if (Object.keys(placed).length > 0 && unplaced.length === 0) return;
        const content: ReactNode = failure.isOffline
          ? intl.formatMessage({ id: 'form.error.offline', defaultMessage: 'The server cannot be reached. Check the connection and try again.' })
          : [failure.message, ...unplaced].filter((text) => text !== '').join(' ') || undefined;
        void dialog.error(content === undefined ? {} : { content });
        return;
      }
      console.error(failure);
      void dialog.error();
    },
    [dialog, fields, intl, setFieldErrors],
  );

  const handleSubmit = useCallback(
    (onValid: (value: T) => Promise<void> | void) => (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (submittingRef.current) return;
      const form = event.currentTarget;
      const names = Object.keys(fields);
      for (const name of names) touchedRef.current.add(name);
      const result = validateForm(struct, toModel(struct, valuesRef.current));
      const codes = result.ok ? {} : collectErrorCodes(struct, valuesRef.current);
      setErrors(Object.fromEntries(Object.entries(codes).map(([name, code]) => [name, { code }])));
      if (!result.ok) {
        const invalidFields = Object.keys(codes).filter((name) => name in fields);
        focusFirst(form, invalidFields);
        // A rule about the whole form has no field to stand beside.
        if (invalidFields.length === 0) {
          void dialog.error({ content: intl.formatMessage({ id: 'error.validation.fallback', defaultMessage: 'Field is invalid' }) });
        }
        return;
      }
      submittingRef.current = true;
      setSubmitting(true);
      void (async () => {
        try {
          await onValid(result.value);
        } catch (failure) {
          showFailure(failure, form);
        } finally {
          submittingRef.current = false;
          setSubmitting(false);
        }
      })();
    },
    [dialog, fields, intl, showFailure, struct],
  );

  return {
    values,
    textField: (name, label) => bind(name, label, false),
    selectField: (name, label) => bind(name, label, true),
    setValues,
    setFieldErrors,
    errorOf,
    isRequired: (name) => required.has(name),
    isSubmitting,
    handleSubmit,
  };
}

/** Moves focus to the first of `names` in document order, so a keyboard or screen reader user lands on it. */
function focusFirst(form: HTMLFormElement, names: readonly string[]): void {
  if (names.length === 0) return;
  for (const element of Array.from(form.elements)) {
    if ((element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) && names.includes(element.name)) {
      // A custom control (the select) carries its value in a hidden input: focus its combobox instead.
      const target = element instanceof HTMLInputElement && element.type === 'hidden' ? element.parentElement?.querySelector<HTMLElement>('[role="combobox"]') : element;
      if (!target) continue;
      target.focus();
      return;
    }
  }
}
