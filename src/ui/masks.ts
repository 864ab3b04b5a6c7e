// Input masks of the UI kit (spec section 5). A mask turns what the user sees ("1,000,000",
// "+7 (912) 345-67-89") into the model value the form keeps ("1000000", "+79123456789").
// The number, percent, currency and phone masks are built on imask (masks-imask.ts) so that caret
// movement, deletion and paste inside formatted text are the library's well-tested behaviour, not ours.
// imask is 16 KB gzipped, so it is a chunk of its own, loaded by the first field that needs it
// (text-field.tsx); the e-mail mask only refuses keystrokes that leave EMAIL_PATTERN, needs no
// formatting and is done here (`attachEmailMask`), so the sign-in pages never download imask.

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

/** A mask attached to an input element. */
export interface FieldMask {
  /** The model value of what the input shows. */
  modelValue(): string;
  /** Shows a model value (e.g. after a model update from code) without reporting it back. */
  setModelValue(value: string): void;
  destroy(): void;
}

/** Whether a mask needs the imask engine: every kind but e-mail. */
export function needsMaskEngine(kind: MaskKind): boolean {
  return kind !== 'email';
}

/** Attaches the imask-based mask of a kind; answers the mask. */
export type MaskEngine = (input: HTMLInputElement, kind: MaskKind, onModelChange: (value: string) => void) => FieldMask;

/**
 * The e-mail mask without imask: a keystroke, paste or autofill that would leave EMAIL_PATTERN is undone
 * (the text and the caret go back to where they were), as imask's pattern mask does; the model value
 * is the text itself.
 */
export function attachEmailMask(input: HTMLInputElement, onModelChange: (value: string) => void): FieldMask {
  let accepted = EMAIL_PATTERN.test(input.value) ? input.value : '';
  let caret: readonly [number, number] = [accepted.length, accepted.length];
  if (input.value !== accepted) input.value = accepted;

  // Where the caret was before the change, to put it back when the change is refused.
  const rememberCaret = () => {
    caret = [input.selectionStart ?? accepted.length, input.selectionEnd ?? accepted.length];
  };
  const onInput = () => {
    if (EMAIL_PATTERN.test(input.value)) {
      if (input.value === accepted) return;
      accepted = input.value;
      onModelChange(accepted);
      return;
    }
    input.value = accepted;
    input.setSelectionRange(caret[0], caret[1]);
  };
  input.addEventListener('beforeinput', rememberCaret);
  input.addEventListener('input', onInput);

  return {
    modelValue: () => accepted,
    setModelValue: (value) => {
      accepted = value;
      if (input.value !== value) input.value = value;
    },
    destroy: () => {
      input.removeEventListener('beforeinput', rememberCaret);
      input.removeEventListener('input', onInput);
    },
  };
}
