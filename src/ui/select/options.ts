// The option model of the select (spec section 3: id, title, optional img, icon, cls and group flags;
// groups hold nested items) and the pure rules the select applies to it: flattening groups for
// keyboard movement, case-insensitive filtering, the fallback of a non-nullable single select and the
// cleaning of a multiple select's value (spec section 5).
import type { ReactNode } from 'react';

/** A select of this many options or more is made searchable by the lists' filters and the dashboard's. */
export const SEARCHABLE_FROM = 9;

export interface SelectOption {
  id: string;
  title: string;
  /** Address of a picture shown before the title (e.g. an avatar or a logo). */
  img?: string;
  /** An icon shown before the title. */
  icon?: ReactNode;
  /** Extra class name of the option's row, for a screen's own styling. */
  cls?: string;
  /** A group: it is a labelled heading of its `items` and cannot be chosen itself. */
  group?: boolean;
  items?: readonly SelectOption[];
  disabled?: boolean;
}

export function isGroup(option: SelectOption): boolean {
  return option.group === true || option.items !== undefined;
}

/** What the menu shows: options, and groups of options, in the given order. */
export type MenuEntry =
  | { kind: 'option'; option: SelectOption }
  | { kind: 'group'; group: SelectOption; options: readonly SelectOption[] };

/**
 * The menu's entries. A group inside a group becomes a group of its own after its parent's direct
 * options: a listbox has one level of groups, and screen readers announce nothing deeper.
 */
export function toEntries(options: readonly SelectOption[]): MenuEntry[] {
  const entries: MenuEntry[] = [];
  const addGroup = (group: SelectOption) => {
    const items = group.items ?? [];
    entries.push({ kind: 'group', group, options: items.filter((item) => !isGroup(item)) });
    for (const item of items) if (isGroup(item)) addGroup(item);
  };
  for (const option of options) {
    if (isGroup(option)) addGroup(option);
    else entries.push({ kind: 'option', option });
  }
  return entries;
}

/** Every choosable option in menu order (the order the arrow keys follow). */
export function choosableOptions(entries: readonly MenuEntry[]): SelectOption[] {
  return entries.flatMap((entry) => (entry.kind === 'option' ? [entry.option] : entry.options));
}

/** Lower case in the user's language, so that 'мос' finds 'Москва' and 'İ' is handled by the locale. */
function fold(text: string): string {
  return text.toLocaleLowerCase().trim();
}

/** The entries whose title contains the query, case-insensitively; groups keep their matching options. */
export function filterEntries(entries: readonly MenuEntry[], query: string): MenuEntry[] {
  const needle = fold(query);
  if (needle === '') return [...entries];
  const matches = (option: SelectOption) => fold(option.title).includes(needle);
  const result: MenuEntry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'option') {
      if (matches(entry.option)) result.push(entry);
    } else {
      const options = entry.options.filter(matches);
      if (options.length > 0) result.push({ ...entry, options });
    }
  }
  return result;
}

/** A non-nullable single select shows the first option when its value is empty or not in the list. */
export function fallbackValue(value: string, choosable: readonly SelectOption[]): string {
  if (choosable.some((option) => option.id === value)) return value;
  return choosable.find((option) => option.disabled !== true)?.id ?? value;
}

/** A multiple select keeps only the values that are in the list, once each, in the given order. */
export function keepKnownValues(values: readonly string[], choosable: readonly SelectOption[]): string[] {
  const known = new Set(choosable.map((option) => option.id));
  return [...new Set(values)].filter((value) => known.has(value));
}

/**
 * The select-only combobox's type-ahead (WAI-ARIA APG): the next option after `from` whose title starts
 * with the typed text; typing one letter again and again cycles through the options starting with it.
 */
export function typeAheadMatch(options: readonly SelectOption[], typed: string, from: number): number {
  const needle = fold(typed);
  if (needle === '') return -1;
  const isRepeat = [...needle].every((char) => char === needle[0]);
  const prefix = isRepeat ? needle.slice(0, 1) : needle;
  // Repeating one letter moves on from the current option; a longer word may match the current one.
  const start = isRepeat ? from + 1 : Math.max(from, 0);
  for (let step = 0; step < options.length; step += 1) {
    const index = (start + step) % options.length;
    const option = options[index];
    if (option && option.disabled !== true && fold(option.title).startsWith(prefix)) return index;
  }
  return -1;
}
