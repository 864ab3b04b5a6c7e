// Input masks of the UI kit (spec section 5), built on imask so that caret movement, deletion and
// paste inside formatted text are the library's well-tested behaviour, not ours. A mask turns what
// the user sees ("1,000,000", "+7 (912) 345-67-89") into the model value the form keeps
// ("1000000", "+79123456789").

import IMask, { type FactoryArg, type InputMask, type MaskedNumberOptions } from 'imask';

export type CurrencyCode = 'RUB' | 'USD' | 'AUD';

export type MaskKind = 'number' | 'percent' | { currency: CurrencyCode } | 'email' | 'phone';

/** Where a currency's sign stands: the ruble after the amount, the dollars before it. */
export const CURRENCY_SIGNS: Readonly<Record<CurrencyCode, { sign: string; position: 'prefix' | 'suffix' }>> = {
  RUB: { sign: '₽', position: 'suffix' },
  USD: { sign: '$', position: 'prefix' },
  AUD: { sign: 'A$', position: 'prefix' },
};

/** Text shown beside the input for a mask: ' %' after a percentage, the currency sign. */
export function maskAffix(kind: MaskKind): { prefix?: string; suffix?: string } {
  if (kind === 'percent') return { suffix: '%' };
  if (typeof kind === 'object') {
    const { sign, position } = CURRENCY_SIGNS[kind.currency];
    return position === 'prefix' ? { prefix: sign } : { suffix: sign };
  }
  return {};
}

/**
 * What an empty masked field shows while it is focused (and only then: spec section 5 wants the mask on
 * focus, not on hover). A placeholder rather than imask's own eager template, which its switching
 * phone mask cannot draw.
 */
export function maskPlaceholder(kind: MaskKind): string | undefined {
  if (kind === 'phone') return '+7 (___) ___-__-__';
  if (kind === 'email') return 'name@example.ru';
  if (kind === 'percent') return '0';
  return '0.00';
}

/** A stable key for a mask, so a field re-creates its mask only when the kind really changes. */
export function maskKey(kind: MaskKind | undefined): string {
  if (kind === undefined) return '';
  return typeof kind === 'object' ? `currency:${kind.currency}` : kind;
}

export function parseMaskKey(key: string): MaskKind | undefined {
  if (key === '') return undefined;
  if (key.startsWith('currency:')) {
    const code = key.slice('currency:'.length);
    if (code === 'RUB' || code === 'USD' || code === 'AUD') return { currency: code };
    return undefined;
  }
  if (key === 'number' || key === 'percent' || key === 'email' || key === 'phone') return key;
  return undefined;
}

/** Whether a mask takes the k (x1000) and m (x1000000) shortcuts. */
export function takesShortcuts(kind: MaskKind): boolean {
  return kind === 'number' || typeof kind === 'object';
}

// Latin letters and their Cyrillic look-alikes, so the shortcut works on a Russian keyboard layout too.
const SHORTCUT_FACTORS: Readonly<Record<string, number>> = { k: 1_000, к: 1_000, m: 1_000_000, м: 1_000_000 };

/** The factor of a shortcut key ('k' -> 1000, 'm' -> 1000000), or undefined for any other text. */
export function shortcutFactor(text: string): number | undefined {
  return SHORTCUT_FACTORS[text.toLowerCase()];
}

/** Multiplies a model number by a factor without binary floating-point noise (1.1k is 1100, not 1100.0000000000002). */
export function multiplyModelValue(value: string, factor: number): string {
  if (value === '' || Number.isNaN(Number(value))) return value;
  const [whole = '0', fraction = ''] = value.split('.');
  const zeros = Math.round(Math.log10(factor));
  const digits = `${whole}${fraction.padEnd(zeros, '0')}`;
  const scaled = `${digits.slice(0, digits.length - Math.max(fraction.length - zeros, 0))}.${fraction.slice(zeros)}`;
  return String(Number(scaled.endsWith('.') ? scaled.slice(0, -1) : scaled));
}

/** Pasted text with shortcuts written out: '5k' -> '5000', '1.5m' -> '1500000'. */
export function expandShortcuts(text: string): string {
  return text.replace(/(\d+(?:\.\d+)?)\s*([kmкм])(?![\p{L}])/giu, (_match, number: string, letter: string) =>
    multiplyModelValue(number, shortcutFactor(letter) ?? 1),
  );
}

const EMAIL_LOCAL = "[A-Za-z0-9.!#$%&'*+/=?^_`{|}~\\p{L}-]{0,64}";
const EMAIL_LABEL = String.raw`[\p{L}\p{N}-]{0,63}`;
/**
 * Every prefix of an acceptable address: a local part of at most 64 characters, then '@', then dot
 * separated domain labels of at most 63 characters each. imask refuses a keystroke that would leave it.
 */
export const EMAIL_PATTERN = new RegExp(`^${EMAIL_LOCAL}(@(${EMAIL_LABEL}(\\.${EMAIL_LABEL})*)?)?$`, 'u');

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

/** A mask attached to an input element. */
export interface FieldMask {
  /** The model value of what the input shows. */
  modelValue(): string;
  /** Shows a model value (e.g. after a model update from code) without reporting it back. */
  setModelValue(value: string): void;
  destroy(): void;
}

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
export function attachMask(input: HTMLInputElement, kind: MaskKind, onModelChange: (value: string) => void): FieldMask {
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
    mask.unmaskedValue = multiplyModelValue(current, factor);
    mask.cursorPos = mask.value.length;
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
        else if (kind === 'phone') mask.unmaskedValue = value.replace(/\D/g, '');
        else mask.unmaskedValue = value;
      }),
    destroy: () => {
      input.removeEventListener('beforeinput', onBeforeInput);
      mask.destroy();
    },
  };
}
