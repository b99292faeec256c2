/**
 * RFC 4180: fields with a comma, quote, CR or LF are quoted, quotes doubled; lines end in CRLF.
 * Every CSV TailLab writes goes through `csvField`.
 */

export type CsvValue = string | number | boolean | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;
/**
 * Text a spreadsheet would take for a formula (OWASP's CSV injection list): a server's error
 * code or a run name such as `=HYPERLINK(…)` must stay text when the file is opened.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One field. Text that starts like a formula gets a leading `'`, which spreadsheets show as
 * text; numbers are written as they are, so negative figures stay numbers.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  const text = typeof value === "string" && FORMULA_START.test(value) ? `'${value}` : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvRow(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/** Excel reads UTF-8 CSV correctly only when the file starts with a byte-order mark. */
export const UTF8_BOM = "\uFEFF";
