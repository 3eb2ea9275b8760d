/**
 * A recipient's values for the template's body placeholders (docs/campaigns.md): each from a contact's
 * field or attribute, a CSV column, or a fixed value, with the fallback when it is empty. For a CSV
 * audience a field or attribute is read from the column of that name, so one mapping serves both.
 */
import type { Placeholder } from '../ports/campaigns.ts';

export interface ValueRecord {
  name: string | null;
  /** E.164 with its +, or null for a user known by id only. */
  phone: string | null;
  attributes: Record<string, string>;
  /** A CSV row's cells by column; empty for a contact. */
  cells: Record<string, string>;
}

/**
 * The record's own value under `key`: a placeholder may name an attribute or a column `constructor` or
 * `toString`, which a plain object would answer with what it inherits.
 */
function own(values: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(values, key) ? values[key] : undefined;
}

function sourceValue(p: Placeholder, record: ValueRecord): string | undefined {
  if ('value' in p) return p.value;
  if ('field' in p) return (p.field === 'name' ? record.name : record.phone) ?? own(record.cells, p.field);
  if ('attribute' in p) return own(record.attributes, p.attribute) ?? own(record.cells, p.attribute);
  return own(record.cells, p.column);
}

/**
 * A value as one line, as the network takes a template's text parameter (no new line or tab, at most four
 * spaces in a row, src/domain/messages/template-cards.ts): a contact's multi-line address or a CSV cell's
 * line break becomes a space, rather than failing its recipient.
 */
function asOneLine(value: string): string {
  return value.replace(/\s*[\r\n\t]\s*/g, ' ').replace(/ {5,}/g, ' ');
}

/** The values in order, or the index of the first placeholder that has neither a value nor a fallback. */
export function fillPlaceholders(
  parameters: readonly Placeholder[],
  record: ValueRecord,
): { values: string[] } | { missing: number } {
  const values: string[] = [];
  for (const [i, p] of parameters.entries()) {
    const value = sourceValue(p, record)?.trim() || ('fallback' in p ? p.fallback : undefined);
    if (value === undefined || value === '') return { missing: i };
    values.push(asOneLine(value));
  }
  return { values };
}

/** Values that stand in for any recipient's: to check the mapping against the template before a start. */
export function sampleValues(parameters: readonly Placeholder[]): string[] {
  return parameters.map((p) => ('value' in p ? p.value : ('fallback' in p && p.fallback) || 'sample'));
}
