/**
 * The flow of a flow send (operation 8, docs/contract.md §3): `flowId` is the gateway's id or the network's
 * (`waFlowId`), of the calling account. A PUBLISHED flow goes out in published mode, a DRAFT in draft mode
 * (for testing, docs/cloud-api.md §1.3); a DEPRECATED flow can no longer be opened (docs/cloud-api.md §6.2). Every send gets
 * a `flow_token` of its own, which the network echoes in the user's completion.
 */
import { randomBytes } from 'node:crypto';
import { GatewayError } from '../errors.ts';
import type { FlowContent } from '../messages/send-flow.ts';
import type { Flow, FlowsStore } from '../ports/flows.ts';
import type { SendContextLike } from '../send-message.ts';

async function findFlow(flows: FlowsStore, accountId: string, flowId: string): Promise<Flow | undefined> {
  const asGatewayId = /^[1-9]\d{0,14}$/.test(flowId) ? Number(flowId) : undefined;
  const byGatewayId =
    asGatewayId !== undefined ? await flows.findFlowOfAccount(accountId, asGatewayId) : undefined;
  return byGatewayId ?? flows.findFlowOfAccountByWaFlowId(accountId, flowId);
}

/** Screen ids of a stored Flow JSON (validated when it was stored). */
function screensOf(row: Flow): string[] {
  const parsed = JSON.parse(row.flowJson.replace(/^\uFEFF/, '')) as { screens?: { id?: unknown }[] };
  return (parsed.screens ?? []).map((s) => String(s.id));
}

export async function resolveFlowSend(
  flows: FlowsStore,
  accountId: string,
  content: FlowContent,
): Promise<SendContextLike> {
  const row = await findFlow(flows, accountId, content.flowId);
  if (!row) {
    throw new GatewayError(
      'not_found',
      `no flow "${content.flowId}" in this account (\`flowId\` is the flow's id or its waFlowId)`,
    );
  }
  if (row.status === 'DEPRECATED') {
    throw new GatewayError(
      'conflict',
      `flow ${row.id} is DEPRECATED and can no longer be sent; publish a new flow`,
    );
  }
  const screens = screensOf(row);
  if (!screens.includes(content.screen)) {
    throw new GatewayError(
      'invalid_request',
      `\`screen\` must be one of the screens of flow ${row.id}: ${screens.join(', ')} (got "${content.screen}")`,
      { field: 'screen' },
    );
  }
  return {
    flow: { networkFlowId: row.waFlowId, mode: row.status === 'PUBLISHED' ? 'published' : 'draft' },
    flowToken: `flowtok_${randomBytes(16).toString('base64url')}`,
  };
}
