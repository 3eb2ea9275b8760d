/**
 * A value as one cell of a CSV file the gateway writes for people to open: quoted when it must be, and
 * never read as a formula by a spreadsheet (a leading =, +, -, @, tab or carriage return gets a `'`; a
 * phone number like +254712345678 stays as it is).
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^\+\d+$/.test(text)) text = `'${text}`;
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
