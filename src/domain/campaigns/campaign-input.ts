/**
 * What a client may say of a campaign (docs/campaigns.md), checked and normalized: the sending number,
 * the template by name and language, one source per body placeholder, the audience, and an optional
 * start time read in a time zone. Each refusal is a 400 naming the field and the rule.
 */
import { normalizePhone } from '../../lib/phone.ts';
import { instantOf, skippedByClocks, timeZoneName } from '../../lib/zoned-time.ts';
import { GatewayError } from '../errors.ts';
import type { Audience, CampaignTemplate, Placeholder } from '../ports/campaigns.ts';

export interface CampaignInput {
  name?: string;
  from?: string;
  template?: {
    name: string;
    language: string;
    header?: CampaignTemplate['header'];
    buttons?: { index: number; parameter: string }[];
  };
  parameters?: Record<string, string>[];
  audience?: { tags?: string[]; contactIds?: string[]; csv?: boolean };
  startAt?: string | null;
  timeZone?: string | null;
}

export interface CampaignSettings {
  name: string;
  from: string;
  template: CampaignTemplate;
  parameters: Placeholder[];
  audience: Audience;
  startAt: number | null;
  timeZone: string | null;
}

export const CAMPAIGN_LIMITS = { name: 200, parameters: 20, tags: 20, contactIds: 1000, value: 1024 };
const COLUMN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const SOURCES = ['field', 'attribute', 'column', 'value'] as const;

const invalid = (field: string, message: string) =>
  new GatewayError('invalid_request', `\`${field}\` ${message}`, { field });

function placeholderOf(raw: Record<string, string>, i: number): Placeholder {
  const field = `parameters[${i}]`;
  const given = SOURCES.filter((s) => raw[s] !== undefined);
  if (given.length !== 1) {
    throw invalid(field, 'must name exactly one source: `field`, `attribute`, `column` or `value`');
  }
  const fallback = raw.fallback === undefined ? {} : { fallback: raw.fallback };
  if (raw.fallback !== undefined && [...raw.fallback].length > CAMPAIGN_LIMITS.value) {
    throw invalid(`${field}.fallback`, `may be at most ${CAMPAIGN_LIMITS.value} characters`);
  }
  const source = given[0] as (typeof SOURCES)[number];
  const value = raw[source] as string;
  if (source === 'field') {
    if (value !== 'name' && value !== 'phone') throw invalid(`${field}.field`, 'must be `name` or `phone`');
    return { field: value, ...fallback };
  }
  if (source === 'value') {
    if (value === '' || [...value].length > CAMPAIGN_LIMITS.value) {
      throw invalid(`${field}.value`, `must be 1 to ${CAMPAIGN_LIMITS.value} characters`);
    }
    return { value };
  }
  if (!COLUMN.test(value)) {
    throw invalid(`${field}.${source}`, 'must be 1 to 64 letters, digits and _, starting with a letter');
  }
  return source === 'attribute' ? { attribute: value, ...fallback } : { column: value, ...fallback };
}

function audienceOf(raw: NonNullable<CampaignInput['audience']>): Audience {
  const kinds = [raw.tags, raw.contactIds, raw.csv].filter((k) => k !== undefined);
  if (kinds.length !== 1) {
    throw invalid('audience', 'must be exactly one of `tags`, `contactIds` or `csv`');
  }
  if (raw.tags !== undefined) {
    if (raw.tags.length === 0 || raw.tags.length > CAMPAIGN_LIMITS.tags) {
      throw invalid('audience.tags', `must hold 1 to ${CAMPAIGN_LIMITS.tags} tags`);
    }
    return { tags: [...new Set(raw.tags.map((t) => t.trim()))] };
  }
  if (raw.contactIds !== undefined) {
    if (raw.contactIds.length === 0 || raw.contactIds.length > CAMPAIGN_LIMITS.contactIds) {
      throw invalid('audience.contactIds', `must hold 1 to ${CAMPAIGN_LIMITS.contactIds} contact ids`);
    }
    return { contactIds: raw.contactIds };
  }
  if (raw.csv !== true)
    throw invalid('audience.csv', 'must be true: the audience is a CSV file uploaded next');
  return { csv: true };
}

/** A local date and time ("2026-12-01T09:00") in `timeZone`, or an instant with its offset ("...Z"). */
function startOf(startAt: string, timeZone: string | null, now: number): number {
  const at = instantOf(startAt, timeZone ?? 'UTC');
  if (at === null) {
    throw invalid(
      'startAt',
      'must be a date and time such as 2026-12-01T09:00 (read in `timeZone`) or 2026-12-01T08:00:00Z',
    );
  }
  const zone = timeZone ?? 'UTC';
  if (skippedByClocks(startAt, zone))
    throw invalid(
      'startAt',
      `must be a time that happens in ${zone}: the clocks skip ${startAt} there (they go forward)`,
    );
  if (at < now - 60_000) throw invalid('startAt', 'must not be in the past');
  return at;
}

function zoneOf(timeZone: string): string {
  const name = timeZoneName(timeZone);
  if (!name) throw invalid('timeZone', 'must be an IANA time zone such as Europe/Paris');
  return name;
}

function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw invalid(field, 'is required');
  return value;
}

/** The settings of a new campaign, or of a draft changed by `input` (what it leaves out stays). */
export function campaignSettings(
  input: CampaignInput,
  now: number,
  base?: CampaignSettings,
): CampaignSettings {
  const name = (input.name ?? base?.name)?.trim();
  if (name === undefined) throw invalid('name', 'is required');
  if (name === '' || [...name].length > CAMPAIGN_LIMITS.name) {
    throw invalid('name', `must be 1 to ${CAMPAIGN_LIMITS.name} characters`);
  }
  let from = base?.from;
  if (input.from !== undefined || !from) {
    const phone = normalizePhone(required(input.from, 'from'));
    if (!phone) throw invalid('from', 'must be a valid phone number with country code, e.g. +14155550123');
    from = phone;
  }
  const template = input.template ?? required(base?.template, 'template');
  const parameters = input.parameters ? input.parameters.map(placeholderOf) : (base?.parameters ?? []);
  if (parameters.length > CAMPAIGN_LIMITS.parameters) {
    throw invalid('parameters', `may hold at most ${CAMPAIGN_LIMITS.parameters} placeholders`);
  }
  const audience = input.audience ? audienceOf(input.audience) : required(base?.audience, 'audience');
  const timeZone =
    input.timeZone === undefined
      ? (base?.timeZone ?? null)
      : input.timeZone === null
        ? null
        : zoneOf(input.timeZone);
  const startAt =
    input.startAt === undefined
      ? (base?.startAt ?? null)
      : input.startAt === null
        ? null
        : startOf(input.startAt, timeZone, now);
  return { name, from, template, parameters, audience, startAt, timeZone };
}
