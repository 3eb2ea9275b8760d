/**
 * The message log's search (src/portal/pages/messages.ts, and its CSV export in messages-csv.ts): the
 * tab, a number (any part of it), a status (sent messages only) and a range of UTC days, each checked,
 * with what is wrong said at its field.
 */
import { messageStatuses } from '../../domain/message-status.ts';
import type { LogFilters } from '../../domain/ports/message-log.ts';
import { field } from '../forms.ts';

const DAY_MS = 86_400_000;

export interface Search {
  tab: 'out' | 'in';
  number: string;
  status: string;
  from: string;
  to: string;
}
export type SearchErrors = Partial<Record<'number' | 'status' | 'from' | 'to', string>>;

function dayStart(raw: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return undefined;
  const at = Date.parse(`${raw}T00:00:00Z`);
  return Number.isNaN(at) ? undefined : at;
}

export function readSearch(query: unknown): { search: Search; filters: LogFilters; errors: SearchErrors } {
  const search: Search = {
    tab: field(query, 'tab', 10) === 'in' ? 'in' : 'out',
    number: field(query, 'number', 40).trim(),
    status: field(query, 'status', 20),
    from: field(query, 'from', 20),
    to: field(query, 'to', 20),
  };
  const errors: SearchErrors = {};
  const filters: LogFilters = {};
  const digits = search.number.replace(/[\s+()\-.]/g, '');
  if (search.number && !/^\d{1,15}$/.test(digits))
    errors.number = 'Use digits of a phone number (at most 15).';
  else if (digits) filters.number = digits;
  if (search.status && !(messageStatuses as readonly string[]).includes(search.status)) {
    errors.status = `Status must be one of ${messageStatuses.join(', ')}.`;
  } else if (search.status && search.tab === 'out') filters.status = search.status;
  if (search.from) {
    const from = dayStart(search.from);
    if (from === undefined) errors.from = 'Use a date like 2026-11-23.';
    else filters.from = from;
  }
  if (search.to) {
    const to = dayStart(search.to);
    if (to === undefined) errors.to = 'Use a date like 2026-11-23.';
    else filters.until = to + DAY_MS; // the whole "to" day is included
  }
  if (filters.from !== undefined && filters.until !== undefined && filters.until <= filters.from) {
    errors.to = 'The end date must not be before the start date.';
  }
  return { search, filters, errors };
}
