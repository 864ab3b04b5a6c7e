// The controls of a list's filters, each bound to one value the page keeps in its URL query (so a reload or
// the back button brings the same list back). They hold no state of their own but the search text being
// typed: it shows at once and reaches the page a moment after the last keystroke, so typing stays fluid over
// a long list; a value that changes under the field (back, a link) replaces what it shows.
import { useEffect, useRef, useState } from 'react';
import { Select, type SelectOption } from './select';
import { SEARCHABLE_FROM } from './select/options';
import { TextField } from './text-field';

/** The search reaches the page (and its URL) this long after the last keystroke. */
export const SEARCH_DELAY_MS = 200;
// Where the rule lives: in the select's options, so a page that only needs the number does not load the
// search field with it.
export { SEARCHABLE_FROM };

export interface SearchFilterProps {
  label: string;
  placeholder?: string;
  /** The search as the URL holds it. */
  value: string;
  /** The text typed, after the pause or at once on Enter. */
  onCommit: (query: string) => void;
  /** The query parameter's name; `q` by default. */
  name?: string;
  /**
   * What the URL keeps of a typed text (e.g. trimmed): a text that already reads as the value is not sent
   * again. Keeps the text as it is by default.
   */
  normalize?: (text: string) => string;
}

export function SearchFilter({ label, placeholder, value, onCommit, name = 'q', normalize }: SearchFilterProps) {
  const [draft, setDraft] = useState(value);
  const [committed, setCommitted] = useState(value);
  // The URL changed under the field (back, a link): show what it says.
  if (value !== committed) {
    setCommitted(value);
    setDraft(value);
  }
  // The latest callbacks, so a re-render of the page does not restart the pause.
  const commitRef = useRef(onCommit);
  const normalizeRef = useRef(normalize);
  useEffect(() => {
    commitRef.current = onCommit;
    normalizeRef.current = normalize;
  }, [onCommit, normalize]);
  useEffect(() => {
    const shown = normalizeRef.current ? normalizeRef.current(draft) : draft;
    if (shown === committed) return;
    const timer = setTimeout(() => commitRef.current(draft), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, committed]);
  return (
    <TextField
      label={label}
      name={name}
      type="search"
      value={draft}
      onChange={setDraft}
      onSubmit={() => onCommit(draft)}
      inputMode="search"
      maxLength={200}
      placeholder={placeholder}
    />
  );
}

export interface FilterSelectProps {
  label: string;
  /** The query parameter's name. */
  name: string;
  /** The chosen option's id; null for "any" (the placeholder). */
  value: string | null;
  onChange: (value: string | null) => void;
  options: readonly SelectOption[];
  /** What "any" reads as ('All departments'). */
  placeholder: string;
  /** By default a long list (more than 8 options) can be searched. */
  searchable?: boolean;
}

const ANY = '';

/** One filter's choice among options, or none. */
export function FilterSelect({ label, name, value, onChange, options, placeholder, searchable }: FilterSelectProps) {
  return (
    <Select
      label={label}
      name={name}
      value={value ?? ANY}
      onChange={(next) => onChange(next === ANY ? null : next)}
      options={options}
      placeholder={placeholder}
      searchable={searchable ?? options.length >= SEARCHABLE_FROM}
    />
  );
}
