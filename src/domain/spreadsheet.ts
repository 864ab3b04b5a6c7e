// Cells of the files people open in Excel, LibreOffice or Google Sheets (the import template, the rejected
// rows of an import). What it guarantees: a cell written through `neutralizeFormula` is never run as a
// formula, whatever a file imported earlier put into the text: a spreadsheet starts a formula (or a DDE
// command such as `=cmd|' /C calc'!A0`) at a leading `=`, `+`, `-` or `@`, and some also after a leading tab
// or carriage return. Such a cell gets a leading apostrophe, which the spreadsheet reads as "this is text"
// (OWASP, "CSV Injection"). Data stays as typed everywhere else (the database, the API); only files get it.

/** The first characters that make a spreadsheet read a cell as a formula. */
export const FORMULA_TRIGGERS: readonly string[] = ['=', '+', '-', '@', '\t', '\r'];

/** `value` as text a spreadsheet shows and never runs: prefixed with `'` when it starts like a formula. */
export function neutralizeFormula(value: string): string {
  return FORMULA_TRIGGERS.some((trigger) => value.startsWith(trigger)) ? `'${value}` : value;
}
