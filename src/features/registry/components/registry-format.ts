// Pure helpers of the registry screens: money from minor units formatted exactly (the amount goes to Intl as its
// decimal text, never through a float), the owner's typed final costs read as minor units, and the totals the
// approval form shows while the owner types (registryTotals over the items with the typed costs).
import type { IntlShape } from 'react-intl';
import { amountTextToMinor, minorToAmountText, type AmountParseCode } from '../../../domain/money';
import { registryTotals, type CurrencyTotals, type RegistryItem } from '../../../domain/registry';

/** `amountMinor` in `currency`, in the user's language ('1 250,50 ₽', '$1,250.50'). */
export function formatMoney(intl: Pick<IntlShape, 'locale'>, amountMinor: number, currency: string): string {
  const format = new Intl.NumberFormat(intl.locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // The decimal text of the amount is exact; Intl formats a numeric string without turning it into a double.
  return format.format(minorToAmountText(amountMinor) as `${number}`);
}

/** The decimal separator people type in this language (',' for Russian). */
export function separatorOf(intl: Pick<IntlShape, 'locale'>): ',' | '.' {
  return intl.locale.startsWith('en') ? '.' : ',';
}

/** What the owner typed for one project: the final cost (empty: the calculated cost stands) and the reason. */
export interface AdjustmentDraft {
  cost: string;
  reason: string;
}

/** One project's draft read: its adjusted final cost (null: none), and what is wrong with it. */
export interface AdjustmentCheck {
  /** The final cost when it is a valid amount that differs from the calculated cost; null otherwise. */
  finalCostMinor: number | null;
  costError: AmountParseCode | null;
  /** 'required' when the cost differs and no reason is given. */
  reasonError: 'required' | null;
}

/** Reads the owner's draft of `item`: an empty cost, or one equal to the calculated cost, adjusts nothing. */
export function checkAdjustment(item: Pick<RegistryItem, 'estimatedCostsMinor'>, draft: AdjustmentDraft | undefined): AdjustmentCheck {
  const text = draft?.cost.trim() ?? '';
  if (text === '') return { finalCostMinor: null, costError: null, reasonError: null };
  const parsed = amountTextToMinor(text);
  if (!parsed.ok) return { finalCostMinor: null, costError: parsed.code, reasonError: null };
  if (parsed.value === item.estimatedCostsMinor) return { finalCostMinor: null, costError: null, reasonError: null };
  const hasReason = (draft?.reason.trim() ?? '') !== '';
  return { finalCostMinor: parsed.value, costError: null, reasonError: hasReason ? null : 'required' };
}

/** The items with the owner's valid typed costs written in (what the totals show as they type). */
export function draftItems(items: readonly RegistryItem[], drafts: Readonly<Record<string, AdjustmentDraft>>): RegistryItem[] {
  return items.map((item) => {
    const { finalCostMinor } = checkAdjustment(item, drafts[item.projectId]);
    return finalCostMinor === null ? item : { ...item, finalCostMinor, adjustmentReason: drafts[item.projectId]?.reason.trim() ?? null };
  });
}

/** The totals per currency with the owner's typed costs; null when a sum passes what an amount may be. */
export function draftTotals(items: readonly RegistryItem[], drafts: Readonly<Record<string, AdjustmentDraft>>): CurrencyTotals[] | null {
  try {
    return registryTotals(draftItems(items, drafts));
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}
