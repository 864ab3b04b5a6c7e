// When an auth form checks a field that is left (spec section 5: validation on blur), and when it does not.
// Why the auth forms need this: their pages put the cursor in the first field on arrival (autoFocus) and show a
// language switch beside the form. A blur is not always the person leaving a field they worked on: a click on
// the language switch (or a link, the page, another window) took the focus the page had given to an untouched
// e-mail field and marked it red with "Fill in this field.".
// Guarantees: a field the person has typed in (or chosen in) is checked whenever it is left, wherever the focus
// goes; a field nobody typed in is checked only when the focus moves from it to something else in the same
// form (the person moving through the form, e.g. with Tab), never when it goes outside the form (the language
// switch, a link around the form, the page, another window). Submitting checks every field, as always. The
// errors are kept by the form as rule codes, so a language switch words them in the new language.
import { useCallback, useMemo, useRef, type FocusEvent } from 'react';
import type { TextFieldBinding } from '../../ui/form';

export interface FieldVisits {
  /** The form's `onBlurCapture`: learns where the focus goes before the field's own blur handler runs. */
  onBlurCapture: (event: FocusEvent<HTMLFormElement>) => void;
  /** A field's binding (text field or select) under the rule above. */
  field: <B extends TextFieldBinding>(binding: B) => B;
}

export function useFieldVisits(): FieldVisits {
  const edited = useRef(new Set<string>());
  const isMovingWithinForm = useRef(false);

  const onBlurCapture = useCallback((event: FocusEvent<HTMLFormElement>) => {
    const to = event.relatedTarget;
    // null: the focus went to nothing focusable (the page, another window, a button Safari does not focus).
    isMovingWithinForm.current = to instanceof Node && event.currentTarget.contains(to);
  }, []);

  const field = useCallback(
    <B extends TextFieldBinding>(binding: B): B => ({
      ...binding,
      onChange: (value: string) => {
        if (value !== binding.value) edited.current.add(binding.name);
        binding.onChange(value);
      },
      onBlur: () => {
        if (edited.current.has(binding.name) || isMovingWithinForm.current) binding.onBlur();
      },
    }),
    [],
  );

  return useMemo(() => ({ onBlurCapture, field }), [onBlurCapture, field]);
}
