/**
 * CSV as RFC 4180 has it (CRLF line ends, quotes doubled), made safe to open in a spreadsheet:
 * - every text cell is quoted, not only those holding a comma, quote or line break: in locales whose
 *   list separator is `;` a spreadsheet splits an unquoted `notes;=cmd|…` at the `;` and reads the
 *   second part as a formula. Only numbers and plain decimals (our money strings) go unquoted.
 * - a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return, or with one of those
 *   after leading white space (or their full-width forms), would be read as a formula (a session
 *   title is whatever the person, or a transcript, wrote), so it gets a leading `'`, the OWASP advice.
 */
export type Cell = string | number | boolean | null;

const FORMULA_START = /^[\t\r]|^[\s\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]/;
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  if (PLAIN_DECIMAL.test(value)) return value;
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(header: readonly string[], rows: readonly (readonly Cell[])[]): string {
  return [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
