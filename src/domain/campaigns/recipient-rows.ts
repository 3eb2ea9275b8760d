/**
 * A campaign's recipients as the API and the portal list and export them (docs/campaigns.md): one row
 * shape and one CSV file for both. Each recipient's status is the bucket the counts put it in
 * (counts.ts), so a list and the counts always agree; one being sent right now is `sending`.
 */

import { csvCell } from '../../lib/csv-cell.ts';
import type { Campaign, RecipientFilter, RecipientRecord } from '../ports/campaigns.ts';
import { iso } from './campaign-events.ts';
import type { CampaignDeps } from './campaign-service.ts';
import { countsOf } from './counts.ts';

const CSV_PAGE = 1000;
export const CSV_COLUMNS = [
  'seq',
  'to',
  'contactId',
  'line',
  'status',
  'reason',
  'replied',
  'messageId',
  'sentAt',
] as const;

/** sending, queued, sent, delivered, read, failed or skipped: where the counts put this recipient. */
export function recipientStatus(r: RecipientRecord): string {
  if (r.state === 'SENDING') return 'sending';
  const c = countsOf([
    { state: r.state, reason: r.reason, messageStatus: r.messageStatus, count: 1, replied: 0 },
  ]);
  if (c.skipped.total) return 'skipped';
  if (c.failed) return 'failed';
  if (c.queued) return 'queued';
  return c.read ? 'read' : c.delivered ? 'delivered' : 'sent';
}

/** A number with its +, a user id as it is, and an invalid number as the file wrote it. */
export function recipientTo(r: RecipientRecord): string {
  if (r.reason === 'invalid_number') return r.recipient;
  return /^\d+$/.test(r.recipient) ? `+${r.recipient}` : r.recipient;
}

export function recipientRow(
  r: RecipientRecord,
): Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null> {
  return {
    seq: r.seq,
    to: recipientTo(r),
    contactId: r.contactId,
    line: r.line,
    status: recipientStatus(r),
    reason: r.reason,
    replied: r.replied,
    messageId: r.messageId,
    sentAt: iso(r.sentAt),
  };
}

/** Every recipient the filter keeps, a page at a time, so a large campaign never sits in memory. */
export async function* recipientsCsv(
  deps: CampaignDeps,
  campaign: Campaign,
  filter: RecipientFilter | undefined,
): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\n`;
  for (let afterSeq = -1; ; ) {
    const page = await deps.campaigns.recipients(campaign, filter, { afterSeq, offset: 0, limit: CSV_PAGE });
    if (page.length === 0) return;
    yield page
      .map((r) => {
        const row = recipientRow(r);
        return `${CSV_COLUMNS.map((c) => csvCell(row[c])).join(',')}\n`;
      })
      .join('');
    afterSeq = page[page.length - 1]!.seq;
  }
}
