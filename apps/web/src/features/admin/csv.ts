/** A cell of an exported table. */
export type CsvCell = string | number | boolean | null;

/**
 * Quotes a cell when it holds a comma, quote or line break (RFC 4180). A text cell a spreadsheet
 * would read as a formula is defused with a leading `'`: one starting with = + - @, or with a TAB or
 * CR (spreadsheets strip those and read what follows; OWASP's CSV-injection list).
 */
function cell(value: CsvCell): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Rows as CSV text with a header line.
 * @example toCsv(['day', 'count'], [['2026-03-01', 4]]) // 'day,count\r\n2026-03-01,4\r\n'
 */
export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly CsvCell[]>): string {
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/** Offers `csv` to the browser as a file download named `filename`. */
export function downloadCsv(filename: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
