/**
 * A campaign's audience read into its recipients (docs/campaigns.md): the contacts with any of its tags,
 * the contacts it lists, or the rows of an uploaded CSV file. Each recipient's placeholder values are
 * worked out here, once, so the send reads nothing but its row. A person who appears twice is sent to
 * once (the later rows are `duplicate`), a row without a valid number is `invalid_number`, and one that
 * leaves a placeholder without a value or fallback is `missing_value`. Rows are written 500 at a time.
 */

import { firstRepeated } from '../../lib/csv-records.ts';
import { normalizePhone } from '../../lib/phone.ts';
import { isUserId } from '../../lib/user-id.ts';
import { GatewayError } from '../errors.ts';
import type { Campaign, CampaignsStore, NewRecipient } from '../ports/campaigns.ts';
import type { Contact, ContactsStore } from '../ports/contacts.ts';
import { fillPlaceholders, type ValueRecord } from './placeholders.ts';

const BATCH = 500;

export interface AudienceDeps {
  campaigns: CampaignsStore;
  contacts: Pick<ContactsStore, 'list' | 'find'>;
  now?: () => number;
}

export interface AudienceReport {
  rows: number;
  queued: number;
  skipped: number;
  rejected: { line: number; reason: string }[];
}

/** Writes recipients in batches, numbering them and telling repeated people apart. */
class RecipientWriter {
  readonly #seen = new Set<string>();
  #batch: NewRecipient[] = [];
  #next = 0;
  readonly report: AudienceReport = { rows: 0, queued: 0, skipped: 0, rejected: [] };

  readonly deps: AudienceDeps;
  readonly campaign: Campaign;

  constructor(deps: AudienceDeps, campaign: Campaign) {
    this.deps = deps;
    this.campaign = campaign;
  }

  get total(): number {
    return this.#next + this.#batch.length;
  }

  async add(
    key: string | null,
    raw: string,
    record: ValueRecord,
    extra: { contactId: string | null; line: number | null },
  ) {
    this.report.rows++;
    const filled = fillPlaceholders(this.campaign.parameters, record);
    const reason = !key
      ? 'invalid_number'
      : this.#seen.has(key)
        ? 'duplicate'
        : 'missing' in filled
          ? 'missing_value'
          : null;
    if (key) this.#seen.add(key);
    const variables = 'values' in filled ? filled.values : null;
    this.#batch.push({
      ...extra,
      recipient: key ?? raw,
      variables,
      state: reason ? 'SKIPPED' : 'QUEUED',
      reason,
    });
    if (reason) this.report.skipped++;
    else this.report.queued++;
    if (reason && extra.line !== null)
      this.report.rejected.push({ line: extra.line, reason: reasonWords(reason, filled) });
    if (this.#batch.length >= BATCH) await this.flush();
  }

  async flush() {
    if (this.#batch.length === 0) return;
    const at = (this.deps.now ?? Date.now)();
    await this.deps.campaigns.appendRecipients(this.campaign, this.#next, this.#batch, at);
    this.#next += this.#batch.length;
    this.#batch = [];
  }
}

function reasonWords(reason: string, filled: ReturnType<typeof fillPlaceholders>): string {
  if (reason === 'invalid_number')
    return 'invalid_number: `phone` must be a valid phone number with country code, or `user_id` a business-scoped user id';
  if (reason === 'duplicate') return 'duplicate: this person is already in the audience';
  const index = 'missing' in filled ? filled.missing : 0;
  return `missing_value: parameters[${index}] has no value for this row and no fallback`;
}

const contactRecord = (c: Contact): ValueRecord => ({
  name: c.name,
  phone: c.phone ? `+${c.phone}` : null,
  attributes: c.attributes,
  cells: {},
});

async function* contactsOf(deps: AudienceDeps, campaign: Campaign): AsyncGenerator<Contact> {
  const { audience, accountId } = campaign;
  if ('contactIds' in audience) {
    for (const id of audience.contactIds) {
      const contact = await deps.contacts.find(accountId, id);
      if (contact) yield contact;
    }
    return;
  }
  if (!('tags' in audience)) return;
  const yielded = new Set<string>();
  for (const tag of audience.tags) {
    for (let offset = 0; ; offset += BATCH) {
      const { contacts } = await deps.contacts.list(accountId, { tag }, { offset, limit: BATCH });
      for (const c of contacts) {
        if (yielded.has(c.id)) continue; // in several of the tags: one person, not a duplicate
        yielded.add(c.id);
        yield c;
      }
      if (contacts.length < BATCH) break;
    }
  }
}

/** Reads a tags or contacts audience into recipients (from scratch: a start cut short is read again). */
export async function readContactAudience(deps: AudienceDeps, campaign: Campaign): Promise<number> {
  await deps.campaigns.clearRecipients(campaign.id);
  const writer = new RecipientWriter(deps, campaign);
  for await (const c of contactsOf(deps, campaign)) {
    await writer.add(c.phone ?? c.userId, c.id, contactRecord(c), { contactId: c.id, line: null });
  }
  await writer.flush();
  return writer.total;
}

/** A CSV row's recipient: `phone` (any written form), else `user_id`. */
function keyOfRow(cells: Record<string, string>): string | null {
  if (cells.phone !== undefined) return normalizePhone(cells.phone);
  if (cells.user_id !== undefined && isUserId(cells.user_id)) return cells.user_id;
  return null;
}

/** Checks the header before any row is read: `phone` or `user_id`, and each column named once. */
export function checkAudienceColumns(columns: string[]): void {
  if (!columns.includes('phone') && !columns.includes('user_id')) {
    throw new GatewayError(
      'invalid_request',
      '`file`: the first line must name the columns, with `phone` or `user_id` among them',
      { field: 'file' },
    );
  }
  const repeated = firstRepeated(columns);
  if (repeated !== undefined) {
    throw new GatewayError('invalid_request', `\`file\`: the column "${repeated}" appears twice`, {
      field: 'file',
    });
  }
}

/** Reads an uploaded CSV audience into recipients, replacing any read before; every left-out row is reported. */
export async function readCsvAudience(
  deps: AudienceDeps,
  campaign: Campaign,
  rows: AsyncIterable<{ cells: Record<string, string>; line: number }>,
): Promise<{ report: AudienceReport; total: number }> {
  await deps.campaigns.clearRecipients(campaign.id);
  const writer = new RecipientWriter(deps, campaign);
  for await (const { cells, line } of rows) {
    const key = keyOfRow(cells);
    const record: ValueRecord = {
      name: cells.name ?? null,
      phone: key && !isUserId(key) ? `+${key}` : null,
      attributes: {},
      cells,
    };
    await writer.add(key, cells.phone ?? cells.user_id ?? '', record, { contactId: null, line });
  }
  await writer.flush();
  return { report: writer.report, total: writer.total };
}
