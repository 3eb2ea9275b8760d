/**
 * The rules of WhatsApp Flows (docs/contract.md §4, docs/cloud-api.md §6): create, update, publish, deprecate, delete,
 * preview and list an account's flows, keeping the gateway's record and the network's flow in step.
 *
 * The network is asked first and the record written after, each write conditional on the status read
 * before (a publish racing an update cannot both win). Another account's flow is "not found", never
 * "forbidden".
 */
import type { FlowProblem } from '../../lib/flow-json/index.ts';
import { validateFlowJson } from '../../lib/flow-json/index.ts';
import type { FlowPreviewLink } from '../../lib/flow-preview-links.ts';
import { normalizePhone } from '../../lib/phone.ts';
import { type BusinessAccountDeps, businessAccountOf } from '../business-accounts.ts';
import { GatewayError } from '../errors.ts';
import type { Flow, FlowStatus, FlowsStore } from '../ports/flows.ts';
import type { NetworkConnector, NetworkFlowProblem } from '../ports/network.ts';
import { parseFlowCategories } from './flow-categories.ts';
import { flowNetworkError } from './network-failure.ts';

export interface FlowDeps extends BusinessAccountDeps {
  flows: FlowsStore;
  connector: NetworkConnector;
  /** The signed preview link of a flow, built by the composition root (src/lib/flow-preview-links.ts). */
  previewLink(flowId: number): FlowPreviewLink;
  now?: () => number;
}

/** The Flow resource of the API document. */
export interface FlowView {
  id: number;
  waFlowId: string;
  name: string;
  status: FlowStatus;
  categories: string[];
  createdAt: string;
  updatedAt: string;
}

/** Multipart parts of create and update, as text (every one optional on update). */
export interface FlowParts {
  phoneNumber?: string;
  name?: string;
  categories?: string;
  /** The uploaded file's text. */
  flowJson?: string;
}

export interface FlowPage {
  data: FlowView[];
  totalPages: number;
  totalItemsInPage: number;
  totalElements: number;
}

/** Meta's limit on a flow name (docs/cloud-api.md §6.1, its Flows API refuses longer names). */
const NAME_MAX = 200;

export function flowView(row: Flow): FlowView {
  return {
    id: row.id,
    waFlowId: row.waFlowId,
    name: row.name,
    status: row.status,
    categories: JSON.parse(row.categories) as string[],
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function checkedName(raw: string): string {
  const name = raw.trim();
  if (name === '' || [...name].length > NAME_MAX) {
    throw new GatewayError('invalid_request', `\`name\` must be 1 to ${NAME_MAX} characters`, {
      field: 'name',
    });
  }
  return name;
}

function checkedPhone(raw: string): string {
  const phone = normalizePhone(raw);
  if (!phone) {
    throw new GatewayError(
      'invalid_request',
      '`phoneNumber` must be a valid phone number with country code',
      {
        field: 'phoneNumber',
      },
    );
  }
  return phone;
}

/**
 * `[1] path: rule [2] path: rule`: numbered, because a rule's own words may hold `;` or `,`, so a plain
 * separator would not tell a client where one problem ends and the next begins.
 */
function listed(problems: readonly { path: string; rule: string }[]): string {
  return problems.map((p, i) => `[${i + 1}] ${p.path ? `${p.path}: ${p.rule}` : p.rule}`).join(' ');
}

/** The Flow JSON checked before the network sees it; every problem is listed, not only the first. */
function checkedFlowJson(text: string): void {
  const result = validateFlowJson(text);
  if (!result.ok) {
    const problems: FlowProblem[] = result.problems;
    throw new GatewayError(
      'invalid_request',
      `\`file\` is not a valid Flow JSON (${problems.length} problem${problems.length === 1 ? '' : 's'}): ${listed(problems)}`,
      { field: 'file' },
    );
  }
}

function networkProblemsText(problems: readonly NetworkFlowProblem[]): string {
  return listed(problems.map((p) => ({ path: p.pointers?.[0]?.path ?? '', rule: p.message })));
}

async function ownedFlow(deps: FlowDeps, accountId: string, id: number): Promise<Flow> {
  const row = await deps.flows.findFlowOfAccount(accountId, id);
  if (!row) throw new GatewayError('not_found', `no flow ${id} in this account`);
  return row;
}

/** A DRAFT flow with its Flow JSON and number, to be edited; one past DRAFT is a 409 that says why. */
export async function draftFlow(
  deps: FlowDeps,
  accountId: string,
  id: number,
): Promise<{ view: FlowView; phone: string; flowJson: string }> {
  const row = await ownedFlow(deps, accountId, id);
  if (row.status !== 'DRAFT') {
    throw new GatewayError(
      'conflict',
      `flow ${id} is ${row.status}; only a DRAFT flow can change (create a new flow instead)`,
    );
  }
  return { view: flowView(row), phone: row.phone, flowJson: row.flowJson };
}

/** The account's flow as the API shows it; another account's, or none, is a 404. */
export async function getFlow(deps: FlowDeps, accountId: string, id: number): Promise<FlowView> {
  return flowView(await ownedFlow(deps, accountId, id));
}

/** A conditional write lost to a concurrent change: the flow moved on, or is gone. */
async function changedMeanwhile(deps: FlowDeps, accountId: string, id: number): Promise<never> {
  const row = await ownedFlow(deps, accountId, id);
  throw new GatewayError(
    'conflict',
    `flow ${id} changed meanwhile and is now ${row.status}; read it and retry`,
  );
}

async function uploadFlowJson(
  deps: FlowDeps,
  accessToken: string,
  waFlowId: string,
  flowJson: string,
): Promise<NetworkFlowProblem[]> {
  const uploaded = await deps.connector.uploadFlowJson(accessToken, waFlowId, flowJson);
  if (!uploaded.ok) throw flowNetworkError('Flow JSON upload', uploaded.failure);
  return uploaded.value.validationErrors;
}

export async function createFlow(deps: FlowDeps, accountId: string, parts: FlowParts): Promise<FlowView> {
  for (const part of ['phoneNumber', 'name', 'categories', 'flowJson'] as const) {
    if (parts[part] === undefined) {
      const wire = part === 'flowJson' ? 'file' : part;
      throw new GatewayError('invalid_request', `\`${wire}\` is required`, { field: wire });
    }
  }
  const phone = checkedPhone(parts.phoneNumber!);
  const name = checkedName(parts.name!);
  const categories = parseFlowCategories(parts.categories!);
  const flowJson = parts.flowJson!;
  checkedFlowJson(flowJson);
  const account = await businessAccountOf(deps, accountId, phone, 'phoneNumber');

  const created = await deps.connector.createFlow(account, { name, categories });
  if (!created.ok) throw flowNetworkError('flow creation', created.failure);
  const { flowId } = created.value;
  let validationErrors: NetworkFlowProblem[];
  try {
    validationErrors = await uploadFlowJson(deps, account.accessToken, flowId, flowJson);
  } catch (error) {
    // A DRAFT without its Flow JSON would be left behind on the network: remove it (best effort).
    await deps.connector.deleteFlow(account.accessToken, flowId);
    throw error;
  }
  const now = (deps.now ?? Date.now)();
  const row = await deps.flows.createFlow(
    {
      accountId,
      phone,
      name,
      categories: JSON.stringify(categories),
      waFlowId: flowId,
      flowJson: flowJson,
      validationErrors: JSON.stringify(validationErrors),
    },
    now,
  );
  return flowView(row);
}

export async function updateFlow(
  deps: FlowDeps,
  accountId: string,
  id: number,
  parts: FlowParts,
): Promise<FlowView> {
  const row = await ownedFlow(deps, accountId, id);
  if (row.status !== 'DRAFT') {
    throw new GatewayError(
      'conflict',
      `flow ${id} is ${row.status}; only a DRAFT flow can change (create a new flow instead)`,
    );
  }
  if (Object.values(parts).every((v) => v === undefined)) {
    throw new GatewayError('invalid_request', 'send at least one of `name`, `categories` or `file`', {
      field: 'body',
    });
  }
  if (parts.phoneNumber !== undefined && checkedPhone(parts.phoneNumber) !== row.phone) {
    throw new GatewayError(
      'invalid_request',
      `\`phoneNumber\` cannot change: flow ${id} belongs to +${row.phone}; create a new flow for another number`,
      { field: 'phoneNumber' },
    );
  }
  const name = parts.name !== undefined ? checkedName(parts.name) : undefined;
  const categories = parts.categories !== undefined ? parseFlowCategories(parts.categories) : undefined;
  if (parts.flowJson !== undefined) checkedFlowJson(parts.flowJson);
  const account = await businessAccountOf(deps, accountId, row.phone, 'phoneNumber');

  if (name !== undefined || categories !== undefined) {
    const updated = await deps.connector.updateFlowMetadata(account.accessToken, row.waFlowId, {
      ...(name !== undefined ? { name } : {}),
      ...(categories !== undefined ? { categories } : {}),
    });
    if (!updated.ok) throw flowNetworkError('flow update', updated.failure);
  }
  const validationErrors =
    parts.flowJson !== undefined
      ? await uploadFlowJson(deps, account.accessToken, row.waFlowId, parts.flowJson)
      : undefined;
  const changed = await deps.flows.updateFlowOfAccountIfStatus(
    accountId,
    id,
    'DRAFT',
    {
      ...(name !== undefined ? { name } : {}),
      ...(categories !== undefined ? { categories: JSON.stringify(categories) } : {}),
      ...(parts.flowJson !== undefined ? { flowJson: parts.flowJson } : {}),
      ...(validationErrors !== undefined ? { validationErrors: JSON.stringify(validationErrors) } : {}),
    },
    (deps.now ?? Date.now)(),
  );
  return flowView(changed ?? (await changedMeanwhile(deps, accountId, id)));
}

export async function publishFlow(deps: FlowDeps, accountId: string, id: number): Promise<FlowView> {
  const row = await ownedFlow(deps, accountId, id);
  if (row.status === 'PUBLISHED') throw new GatewayError('conflict', `flow ${id} is already PUBLISHED`);
  if (row.status !== 'DRAFT') {
    throw new GatewayError('conflict', `flow ${id} is ${row.status}; only a DRAFT flow can be published`);
  }
  const problems = JSON.parse(row.validationErrors) as NetworkFlowProblem[];
  if (problems.length > 0) {
    throw new GatewayError(
      'invalid_request',
      `flow ${id} cannot be published while its Flow JSON has validation errors; upload a corrected \`file\` first: ${networkProblemsText(problems)}`,
      { field: 'file' },
    );
  }
  const account = await businessAccountOf(deps, accountId, row.phone, 'phoneNumber');
  const published = await deps.connector.publishFlow(account.accessToken, row.waFlowId);
  if (!published.ok) throw flowNetworkError('publication', published.failure);
  const changed = await deps.flows.updateFlowOfAccountIfStatus(
    accountId,
    id,
    'DRAFT',
    { status: 'PUBLISHED' },
    // `updatedAt` must move (API document, flow status table) even within the millisecond of creation.
    Math.max((deps.now ?? Date.now)(), row.updatedAt + 1),
  );
  return flowView(changed ?? (await changedMeanwhile(deps, accountId, id)));
}

export async function deprecateFlow(deps: FlowDeps, accountId: string, id: number): Promise<FlowView> {
  const row = await ownedFlow(deps, accountId, id);
  if (row.status !== 'PUBLISHED') {
    const hint = row.status === 'DRAFT' ? ' (a DRAFT flow can be deleted instead)' : '';
    throw new GatewayError(
      'conflict',
      `flow ${id} is ${row.status}; only a PUBLISHED flow can be deprecated${hint}`,
    );
  }
  const account = await businessAccountOf(deps, accountId, row.phone, 'phoneNumber');
  const deprecated = await deps.connector.deprecateFlow(account.accessToken, row.waFlowId);
  if (!deprecated.ok) throw flowNetworkError('deprecation', deprecated.failure);
  const changed = await deps.flows.updateFlowOfAccountIfStatus(
    accountId,
    id,
    'PUBLISHED',
    { status: 'DEPRECATED' },
    Math.max((deps.now ?? Date.now)(), row.updatedAt + 1),
  );
  return flowView(changed ?? (await changedMeanwhile(deps, accountId, id)));
}

export async function deleteFlow(deps: FlowDeps, accountId: string, id: number): Promise<void> {
  const row = await ownedFlow(deps, accountId, id);
  if (row.status !== 'DRAFT') {
    const hint = row.status === 'PUBLISHED' ? ' (deprecate a published flow instead)' : '';
    throw new GatewayError(
      'conflict',
      `flow ${id} is ${row.status}; only a DRAFT flow can be deleted${hint}`,
    );
  }
  const account = await businessAccountOf(deps, accountId, row.phone, 'phoneNumber');
  const deleted = await deps.connector.deleteFlow(account.accessToken, row.waFlowId);
  if (!deleted.ok) throw flowNetworkError('deletion', deleted.failure);
  if (!(await deps.flows.deleteFlowOfAccountIfStatus(accountId, id, 'DRAFT'))) {
    await changedMeanwhile(deps, accountId, id);
  }
}

export async function flowPreview(
  deps: FlowDeps,
  accountId: string,
  id: number,
): Promise<{ preview: FlowPreviewLink; id: string }> {
  const row = await ownedFlow(deps, accountId, id);
  return { preview: deps.previewLink(row.id), id: String(row.id) };
}

export async function listFlows(
  deps: FlowDeps,
  accountId: string,
  page: number,
  perPage: number,
): Promise<FlowPage> {
  const { rows, total } = await deps.flows.listFlowsOfAccount(accountId, page, perPage);
  return {
    data: rows.map(flowView),
    totalPages: Math.ceil(total / perPage),
    totalItemsInPage: rows.length,
    totalElements: total,
  };
}
