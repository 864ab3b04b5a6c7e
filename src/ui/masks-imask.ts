// The masks of the UI kit that format as the user types (number, percent, currency, phone), on imask.
// A chunk of its own: text-field.tsx loads it for a field with a value to show, or when an empty masked
// field is first focused, pressed or typed into, so a page whose masked fields nobody edits never
// downloads imask. Helpers and the mask kinds live in masks.ts.
import IMask, { type FactoryArg, type InputMask, type MaskedNumberOptions } from 'imask';
import { EMAIL_PATTERN, expandShortcuts, multiplyModelValue, shortcutFactor, takesShortcuts, type FieldMask, type MaskEngine, type MaskKind } from './masks';

function numberOptions(options: Omit<MaskedNumberOptions, 'mask'>): MaskedNumberOptions & { mask: NumberConstructor } {
  return { mask: Number, radix: '.', mapToRadix: ['.'], thousandsSeparator: ',', normalizeZeros: true, scale: 2, ...options };
}

/** imask options for a mask kind. */
export function maskOptions(kind: MaskKind): FactoryArg {
  if (kind === 'number') return numberOptions({ prepare: expandShortcuts });
  if (kind === 'percent') return numberOptions({ thousandsSeparator: '', min: 0, max: 100 });
  if (kind === 'email') return { mask: EMAIL_PATTERN };
  if (kind === 'phone') return PHONE_OPTIONS;
  return numberOptions({ padFractionalZeros: true, prepare: expandShortcuts });
}

// A Russian number is written +7 (912) 345-67-89; a number that starts with another country code
// keeps its digits in groups of three. An 11-digit number pasted with the domestic 8 is the same +7.
const PHONE_OPTIONS: FactoryArg = {
  mask: [{ mask: '+{7} (000) 000-00-00' }, { mask: '+000 000 000 000[000]' }],
  prepare: (text: string) => {
    const digits = text.replace(/\D/g, '');
    return digits.length === 11 && digits.startsWith('8') && !text.trim().startsWith('+') ? `7${digits.slice(1)}` : text;
  },
  dispatch: (appended, dynamicMasked) => {
    const typed = `${dynamicMasked.value}${appended}`;
    const digits = typed.replace(/\D/g, '');
    const isForeign = typed.trim().startsWith('+') && digits !== '' && !digits.startsWith('7');
    return dynamicMasked.compiledMasks[isForeign ? 1 : 0];
  },
};

function modelOf(kind: MaskKind, mask: InputMask<FactoryArg>): string {
  if (kind === 'email') return mask.value;
  if (kind === 'phone') {
    const digits = mask.unmaskedValue.replace(/\D/g, '');
    return digits === '' ? '' : `+${digits}`;
  }
  return mask.unmaskedValue;
}

/**
 * Attaches a mask to `input`; `onModelChange` hears each model value the user produces (typing,
 * paste, a k/m shortcut). Values set through `setModelValue` are not reported back.
 */
export function attachImaskMask(input: HTMLInputElement, kind: MaskKind, onModelChange: (value: string) => void): FieldMask {
  const mask = IMask(input, maskOptions(kind));
  let isSilent = false;
  let lastReported = modelOf(kind, mask);

  mask.on('accept', () => {
    if (isSilent) return;
    const value = modelOf(kind, mask);
    if (value === lastReported) return;
    lastReported = value;
    onModelChange(value);
  });

  // Typing k or m multiplies what is there. The key is taken before the browser inserts it, so the
  // number mask never sees a letter.
  const onBeforeInput = (event: InputEvent) => {
    if (!takesShortcuts(kind) || event.inputType !== 'insertText' || event.data === null) return;
    const factor = shortcutFactor(event.data);
    if (factor === undefined) return;
    event.preventDefault();
    const current = modelOf(kind, mask);
    if (current === '') return;
    // Entered as typed digits, not through `unmaskedValue`: that commits the value, and the currency
    // mask would pad it to "5,000.00" mid-edit, where typed digits show "5,000" until the field is left.
    mask.masked.reset();
    mask.masked.append(multiplyModelValue(current, factor), { input: true });
    mask.updateControl(mask.displayValue.length);
  };
  input.addEventListener('beforeinput', onBeforeInput);

  const silently = (change: () => void) => {
    isSilent = true;
    try {
      change();
    } finally {
      isSilent = false;
    }
    lastReported = modelOf(kind, mask);
  };

  return {
    modelValue: () => modelOf(kind, mask),
    setModelValue: (value) =>
      silently(() => {
        if (kind === 'email') mask.value = value;
        // The whole number with its '+', so that a foreign one is dispatched to the foreign pattern
        // (its bare digits would be read as a Russian number).
        else if (kind === 'phone') mask.value = value === '' ? '' : `+${value.replace(/\D/g, '')}`;
        else mask.unmaskedValue = value;
      }),
    destroy: () => {
      input.removeEventListener('beforeinput', onBeforeInput);
      mask.destroy();
    },
  };
}

// Checked against the type the loader expects.
export const engine: MaskEngine = attachImaskMask;
