/**
 * The wizard's view of an audience before the campaign exists: how many people it holds, its CSV file's
 * columns, and its first recipients with their placeholder values filled in the domain's way
 * (src/domain/campaigns/placeholders.ts) and rendered as the template they would receive. The CSV rows
 * read here are the ones given to uploadAudience when the campaign is made.
 */
import { checkAudienceColumns } from '../../domain/campaigns/audience.ts';
import type { CampaignDeps } from '../../domain/campaigns/campaign-service.ts';
import { fillPlaceholders, type ValueRecord } from '../../domain/campaigns/placeholders.ts';
import { GatewayError } from '../../domain/errors.ts';
import type { Placeholder } from '../../domain/ports/campaigns.ts';
import type { Contact } from '../../domain/ports/contacts.ts';
import type { TemplateView } from '../../domain/templates/template-view.ts';
import { type CsvRecord, csvRecords } from '../../lib/csv-records.ts';
import { normalizePhone } from '../../lib/phone.ts';
import { isUserId } from '../../lib/user-id.ts';
import { badge } from '../components.ts';
import { html, type SafeHtml } from '../html.ts';
import { templatePreview } from '../template-preview.ts';

const PAGE = 500;
export const SAMPLE_SIZE = 3;

/** One of the first recipients: who, and the values their placeholders are filled from. */
export interface SampleRecipient {
  to: string;
  record: ValueRecord;
  /** Why the audience leaves this one out whatever the placeholders say (audience.ts's reasons). */
  leftOut?: 'invalid_number' | 'duplicate';
  /** From the sandbox number, to someone who has not joined the account's sandbox: the send will fail. */
  notJoined?: boolean;
}

export interface AudienceSummary {
  count: number;
  /** The CSV file's columns; empty for contacts. */
  columns: string[];
  sample: SampleRecipient[];
}

const unreadable = (message: string) => new GatewayError('invalid_request', message, { field: 'file' });

async function* bytesOf(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text, 'utf8');
}

/** The CSV text's records, its header checked first as the API's upload checks it. */
export async function* csvRows(
  text: string,
  onColumns?: (columns: string[]) => void,
): AsyncGenerator<CsvRecord> {
  let header = false;
  try {
    for await (const item of csvRecords(bytesOf(text))) {
      if (!Array.isArray(item)) {
        yield item;
        continue;
      }
      checkAudienceColumns(item);
      onColumns?.(item);
      header = true;
    }
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw unreadable(`\`file\` is not a readable CSV file: ${(error as Error).message}`);
  }
  if (!header) throw unreadable('`file` is empty: its first line must name the columns');
}

/** A CSV row as the audience reads it: its phone (any spelling) or user id, name and cells. */
function csvRecipient(cells: Record<string, string>, seen: Set<string>): SampleRecipient {
  const phone = cells.phone === undefined ? null : normalizePhone(cells.phone);
  const userId = cells.user_id !== undefined && isUserId(cells.user_id) ? cells.user_id : null;
  const key = cells.phone !== undefined ? phone : userId;
  const leftOut = !key ? 'invalid_number' : seen.has(key) ? 'duplicate' : undefined;
  if (key) seen.add(key);
  return {
    to: key ? (isUserId(key) ? key : `+${key}`) : (cells.phone ?? cells.user_id ?? ''),
    record: { name: cells.name ?? null, phone: phone ? `+${phone}` : null, attributes: {}, cells },
    ...(leftOut ? { leftOut } : {}),
  };
}

function contactRecipient(c: Contact): SampleRecipient {
  const phone = c.phone ? `+${c.phone}` : null;
  return {
    to: phone ?? c.userId ?? c.id,
    record: { name: c.name, phone, attributes: c.attributes, cells: {} },
  };
}

export async function csvAudience(text: string): Promise<AudienceSummary> {
  const summary: AudienceSummary = { count: 0, columns: [], sample: [] };
  const seen = new Set<string>();
  for await (const row of csvRows(text, (columns) => summary.columns.push(...columns))) {
    summary.count++;
    if (summary.sample.length < SAMPLE_SIZE) summary.sample.push(csvRecipient(row.cells, seen));
  }
  return summary;
}

/** The contacts with any of the tags, each once, in the order the campaign reads them. */
export async function tagAudience(
  deps: CampaignDeps,
  accountId: string,
  tags: string[],
): Promise<AudienceSummary> {
  const seen = new Set<string>();
  const sample: SampleRecipient[] = [];
  for (const tag of tags) {
    for (let offset = 0; ; offset += PAGE) {
      const { contacts } = await deps.contacts.list(accountId, { tag }, { offset, limit: PAGE });
      for (const c of contacts) {
        if (seen.has(c.id)) continue;
        seen.add(c.id);
        if (sample.length < SAMPLE_SIZE) sample.push(contactRecipient(c));
      }
      if (contacts.length < PAGE) break;
    }
  }
  return { count: seen.size, columns: [], sample };
}

/** The template with these values in place of its examples, so its preview reads as a recipient's message. */
export function withValues(template: TemplateView, body: string[], header?: string): TemplateView {
  const components = (template.components as Record<string, unknown>[]).map((c) => {
    if (c.type === 'BODY') return { ...c, example: { body_text: [body] } };
    if (c.type === 'HEADER' && c.format === 'TEXT' && header)
      return { ...c, example: { header_text: [header] } };
    return c;
  });
  return { ...template, components };
}

/** The first recipients' messages, or why each would be left out. */
export function samplePreviews(
  template: TemplateView,
  parameters: readonly Placeholder[],
  sample: readonly SampleRecipient[],
  header: string,
): SafeHtml {
  if (sample.length === 0) return html`<p>The audience is empty: nobody would receive this campaign.</p>`;
  return html`<ol class="recipient-previews">${sample.map((s) => html`<li><p><strong>To ${s.to}</strong></p>${previewOf(template, parameters, s, header)}</li>`)}</ol>`;
}

function previewOf(
  template: TemplateView,
  parameters: readonly Placeholder[],
  s: SampleRecipient,
  header: string,
) {
  if (s.leftOut === 'invalid_number') {
    return html`<p>${badge('skipped')} Left out (invalid_number): no valid phone number or user id.</p>`;
  }
  if (s.leftOut === 'duplicate') {
    return html`<p>${badge('skipped')} Left out (duplicate): this person is already in the audience.</p>`;
  }
  const filled = fillPlaceholders(parameters, s.record);
  const notJoined = s.notJoined
    ? html`<p>${badge('failed')} Has not joined your sandbox: this message would fail. From the sandbox number, only users who sent your join code receive messages.</p>`
    : '';
  if ('values' in filled)
    return html`${notJoined}${templatePreview(withValues(template, filled.values, header))}`;
  return html`<p>${badge('skipped')} Left out (missing_value): placeholder {{${filled.missing + 1}}} has no value for this recipient and no fallback.</p>`;
}
