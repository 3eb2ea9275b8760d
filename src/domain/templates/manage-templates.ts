/**
 * Operations 13–16 on templates (docs/contract.md §5): create (checked, submitted to the network for review,
 * recorded PENDING), list, update (Meta's edit rules, back to review), delete. The network decides the
 * review; its verdict arrives by webhook (review-templates.ts).
 */
import { normalizePhone } from '../../lib/phone.ts';
import { type BusinessAccount, type BusinessAccountDeps, businessAccountOf } from '../business-accounts.ts';
import { GatewayError } from '../errors.ts';
import type { NetworkConnector } from '../ports/network.ts';
import type { RejectionInfo, Template, TemplateFilters, TemplatesStore } from '../ports/templates.ts';
import { checkTemplate } from './check-template.ts';
import { SANDBOX_TAG_LENGTH, sandboxNetworkName } from './sandbox-names.ts';
import { isSendableTemplateStatus } from './sendable-statuses.ts';
import type { TemplateBodyInput } from './template-body.ts';
import { templateNetworkError } from './template-network-error.ts';
import { LIMITS, type TemplateDefinition } from './template-rules.ts';
import { type TemplateView, templateView } from './template-view.ts';

export interface TemplateDeps extends BusinessAccountDeps {
  templates: TemplatesStore;
  /** Bytes of header files one account may keep (MEDIA_QUOTA_BYTES_PER_ACCOUNT). */
  mediaQuotaBytes: number;
  connector: NetworkConnector;
  /** Called when a change recorded an event for webhook endpoints. */
  wakeDispatcher(): void;
  now?: () => number;
}

/** Statuses a template may be listed by (docs/cloud-api.md §4.4). */
export const TEMPLATE_STATUSES = [
  'APPROVED',
  'PENDING',
  'REJECTED',
  'PAUSED',
  'DISABLED',
  'IN_APPEAL',
  'FLAGGED',
  'REINSTATED',
  'PENDING_DELETION',
  'DELETED',
  'LIMIT_EXCEEDED',
  'ARCHIVED',
  'LOCKED',
] as const;

/** docs/cloud-api.md §4.6. */
const EDITABLE = new Set(['APPROVED', 'REJECTED', 'PAUSED']);
const DAY_MS = 24 * 3_600_000;
const APPROVED_EDITS_PER_DAY = 1;
const APPROVED_EDITS_PER_30_DAYS = 10;

/** The name the network knows a template under (src/domain/templates/sandbox-names.ts). */
function networkNameOf(business: BusinessAccount, accountId: string, name: string): string {
  return business.isSandbox ? sandboxNetworkName(accountId, name) : name;
}

function phoneParam(raw: string): string {
  const phone = normalizePhone(raw);
  if (!phone) {
    throw new GatewayError(
      'invalid_request',
      `\`phone_number\` in the path must be a valid phone number with country code; got "${raw}"`,
      { field: 'phone_number' },
    );
  }
  return phone;
}

/** Every header's sample media must be an upload of this account, of the header's kind. */
async function checkMediaHandles(deps: TemplateDeps, accountId: string, definition: TemplateDefinition) {
  for (const media of definition.mediaHandles) {
    const file = await deps.templates.findMedia(accountId, media.handle);
    if (!file) {
      throw new GatewayError(
        'invalid_request',
        `\`${media.field}\` must be a handle returned by POST /api/v1/template/upload/file for this account`,
        { field: media.field },
      );
    }
    const expected = { IMAGE: 'image/', VIDEO: 'video/', DOCUMENT: 'application/pdf' }[media.format];
    if (!file.mimeType.startsWith(expected)) {
      throw new GatewayError(
        'invalid_request',
        `\`${media.field}\` is a ${file.mimeType} file, which cannot be the media of a ${media.format} header`,
        { field: media.field },
      );
    }
  }
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '23505' || /UNIQUE constraint failed/i.test(e.message ?? '');
}

const alreadyExists = (name: string, language: string) =>
  new GatewayError(
    'conflict',
    `A template named "${name}" already exists in language ${language} on this number; choose another name or language, or update that template`,
    { field: 'name' },
  );

export async function createTemplate(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
  body: TemplateBodyInput,
): Promise<TemplateView> {
  const now = deps.now ?? Date.now;
  const business = await businessAccountOf(deps, accountId, phoneParam(phoneRaw), 'phone_number');
  const nameMaxLength = business.isSandbox ? LIMITS.name - SANDBOX_TAG_LENGTH : LIMITS.name;
  const definition = checkTemplate(body, { nameMaxLength });
  await checkMediaHandles(deps, accountId, definition);
  if (await deps.templates.findByName(accountId, business.phone, definition.name, definition.language)) {
    throw alreadyExists(definition.name, definition.language);
  }
  const networkName = networkNameOf(business, accountId, definition.name);
  const created = await deps.connector.createTemplate(business, {
    name: networkName,
    language: definition.language,
    category: definition.category,
    components: definition.components,
  });
  if (!created.ok) throw templateNetworkError('template', created.failure);
  const at = now();
  const row: Template = {
    id: created.value.id,
    accountId,
    phone: business.phone,
    name: definition.name,
    networkName,
    language: definition.language,
    // The network's category when it gave one: it may have filed the template under another.
    category: created.value.category ?? definition.category,
    status: created.value.status,
    rejectedReason: 'NONE',
    rejectionInfo: null,
    qualityScore: JSON.stringify({ score: 'UNKNOWN', date: String(Math.floor(at / 1000)) }),
    components: JSON.stringify(definition.components),
    editTimes: '[]',
    createdAt: at,
    updatedAt: at,
  };
  let stored: Awaited<ReturnType<TemplatesStore['insert']>>;
  try {
    stored = await deps.templates.insert(row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // A concurrent create of the same name and language won; take ours back from the network.
    await deps.connector.deleteTemplate(business, networkName, row.id);
    throw alreadyExists(definition.name, definition.language);
  }
  if (stored.eventId) deps.wakeDispatcher();
  return templateView(stored.template);
}

export async function listTemplates(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
  filters: TemplateFilters,
): Promise<TemplateView[]> {
  return (await templatesOf(deps, accountId, phoneRaw, filters)).map(templateView);
}

/**
 * The listing with the network's own words on each rejection, which the listing's shape has no key for
 * (docs/contract.md §5): what the portal shows.
 */
export async function listTemplatesWithReviews(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
): Promise<(TemplateView & { rejectionInfo: RejectionInfo | null })[]> {
  const rows = await templatesOf(deps, accountId, phoneRaw, {});
  return rows.map((row) => ({ ...templateView(row), rejectionInfo: row.rejectionInfo }));
}

async function templatesOf(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
  filters: TemplateFilters,
): Promise<Template[]> {
  const business = await businessAccountOf(deps, accountId, phoneParam(phoneRaw), 'phone_number');
  if (filters.status && !(TEMPLATE_STATUSES as readonly string[]).includes(filters.status)) {
    throw new GatewayError('invalid_request', `\`status\` must be one of ${TEMPLATE_STATUSES.join(', ')}`, {
      field: 'status',
    });
  }
  return deps.templates.list(accountId, business.phone, filters);
}

/** The templates of a number the network would send now (src/domain/templates/sendable-statuses.ts). */
export async function listSendableTemplates(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
): Promise<TemplateView[]> {
  const all = await listTemplates(deps, accountId, phoneRaw, {});
  return all.filter((template) => isSendableTemplateStatus(template.status));
}

async function templateOf(deps: TemplateDeps, accountId: string, phone: string, templateId: string) {
  const row = await deps.templates.findOfAccount(accountId, templateId);
  if (!row || row.phone !== phone) {
    throw new GatewayError('not_found', `No template "${templateId}" on +${phone} in this account`);
  }
  return row;
}

/** Meta's edit rules (docs/cloud-api.md §4.6); returns the edit times to keep. */
function checkEditAllowed(row: Template, definition: TemplateDefinition, at: number): number[] {
  if (!EDITABLE.has(row.status)) {
    throw new GatewayError(
      'conflict',
      `Template "${row.name}" is ${row.status}; only APPROVED, REJECTED or PAUSED templates can be edited`,
    );
  }
  if (definition.name !== row.name || definition.language !== row.language) {
    const field = definition.name !== row.name ? 'name' : 'language';
    throw new GatewayError(
      'invalid_request',
      `\`${field}\` of a template never changes (it is "${field === 'name' ? row.name : row.language}"); create a new template instead`,
      { field },
    );
  }
  const edits = (JSON.parse(row.editTimes) as number[]).filter((t) => t > at - 30 * DAY_MS);
  if (row.status !== 'APPROVED') return edits;
  if (definition.category !== row.category) {
    throw new GatewayError(
      'invalid_request',
      `\`category\` of an approved template cannot change (it is ${row.category})`,
      { field: 'category' },
    );
  }
  const lastDay = edits.filter((t) => t > at - DAY_MS);
  if (lastDay.length >= APPROVED_EDITS_PER_DAY) {
    const next = new Date(Math.min(...lastDay) + DAY_MS).toISOString();
    throw new GatewayError(
      'rate_limited',
      `An approved template may be edited once in 24 hours; "${row.name}" can be edited again after ${next}`,
      { retryAfterSeconds: Math.ceil((Math.min(...lastDay) + DAY_MS - at) / 1000) },
    );
  }
  if (edits.length >= APPROVED_EDITS_PER_30_DAYS) {
    throw new GatewayError(
      'rate_limited',
      `An approved template may be edited ${APPROVED_EDITS_PER_30_DAYS} times in 30 days; "${row.name}" reached that`,
      { retryAfterSeconds: Math.ceil((Math.min(...edits) + 30 * DAY_MS - at) / 1000) },
    );
  }
  return [...edits, at];
}

export async function updateTemplate(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
  templateId: string,
  body: TemplateBodyInput,
): Promise<void> {
  const now = deps.now ?? Date.now;
  const business = await businessAccountOf(deps, accountId, phoneParam(phoneRaw), 'phone_number');
  const row = await templateOf(deps, accountId, business.phone, templateId);
  const nameMaxLength = business.isSandbox ? LIMITS.name - SANDBOX_TAG_LENGTH : LIMITS.name;
  const definition = checkTemplate(body, { nameMaxLength });
  await checkMediaHandles(deps, accountId, definition);
  const at = now();
  const editTimes = checkEditAllowed(row, definition, at);
  const edited = await deps.connector.editTemplate(business.accessToken, row.id, {
    ...(definition.category !== row.category ? { category: definition.category } : {}),
    components: definition.components,
  });
  if (!edited.ok) throw templateNetworkError('template edit', edited.failure);
  const eventId = await deps.templates.recordEdit(accountId, row.id, {
    category: definition.category,
    components: JSON.stringify(definition.components),
    editTimes,
    at,
  });
  if (eventId) deps.wakeDispatcher();
}

export async function deleteTemplate(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
  templateId: string,
): Promise<void> {
  const business = await businessAccountOf(deps, accountId, phoneParam(phoneRaw), 'phone_number');
  const row = await templateOf(deps, accountId, business.phone, templateId);
  const deleted = await deps.connector.deleteTemplate(business, row.networkName, row.id);
  if (!deleted.ok) throw templateNetworkError('template deletion', deleted.failure);
  await deps.templates.remove(accountId, [row.id]);
}

/** Every language of `name` on the number (the network's delete by name). */
export async function deleteTemplatesByName(
  deps: TemplateDeps,
  accountId: string,
  phoneRaw: string,
  name: string,
): Promise<number> {
  const business = await businessAccountOf(deps, accountId, phoneParam(phoneRaw), 'phone_number');
  const rows = await deps.templates.list(accountId, business.phone, { name });
  if (rows.length === 0) {
    throw new GatewayError('not_found', `No template named "${name}" on +${business.phone} in this account`);
  }
  const deleted = await deps.connector.deleteTemplate(business, networkNameOf(business, accountId, name));
  if (!deleted.ok) throw templateNetworkError('template deletion', deleted.failure);
  await deps.templates.remove(
    accountId,
    rows.map((r) => r.id),
  );
  return rows.length;
}
