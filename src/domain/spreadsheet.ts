// Text cells of the spreadsheets the product writes (the registry's XLSX on the server, the dashboard's on the
// device), made safe against formula injection (OWASP "CSV injection"): a text a person typed (a project's name, a
// reason) that starts like a formula, `=`, `+`, `-`, `@`, or a tab or carriage return, would run as one in some
// spreadsheet programs once the file is re-saved or imported. Such a text gets a leading apostrophe, which the
// programs show as text and never evaluate. Numbers are written as numbers and need nothing. Pure, no I/O.

const FORMULA_START = /^[=+\-@\t\r]/;

/** `text` as a spreadsheet should hold it: a leading apostrophe where it would otherwise start a formula. */
export function neutraliseCell(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}
