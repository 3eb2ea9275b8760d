/**
 * What the webhook endpoint routes share: their dependencies, schemas, the endpoint's wire view, the URL
 * rule and the lookup that makes another account's endpoint a 404, never a 403.
 */
import { Type } from 'typebox';
import { GatewayError } from '../../../domain/errors.ts';
import { eventTypes } from '../../../events/payloads.ts';
import { webhookUrlProblem } from '../../../lib/url-guard.ts';
import type { EndpointRow, WebhooksRepo } from '../../../store/webhooks-repo.ts';

export interface WebhookRouteDeps {
  repo: WebhooksRepo;
  secretKey: Buffer;
  allowPrivateUrls: boolean;
  /** How long the previous secret keeps signing after a rotation. */
  rotationOverlapMs: number;
  wakeDispatcher(): void;
}

export const EventTypeList = Type.Array(Type.String({ enum: [...eventTypes] }), {
  minItems: 1,
  maxItems: eventTypes.length,
  uniqueItems: true,
});
export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const tags = ['webhooks'];

export function view(row: EndpointRow, secret?: string) {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    enabled: row.disabled_at === null,
    ...(secret ? { secret } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export function checkUrl(url: string, allowPrivate: boolean): void {
  const problem = webhookUrlProblem(url, allowPrivate);
  if (problem) throw new GatewayError('invalid_request', `\`url\` ${problem}`, { field: 'url' });
}

/** The account's endpoint with this id; another account's, or none, is the same 404. */
export async function ownedEndpoint(repo: WebhooksRepo, accountId: string, id: string): Promise<EndpointRow> {
  const row = await repo.findEndpointOfAccount(accountId, id);
  if (!row) throw new GatewayError('not_found', `no webhook endpoint ${id} in this account`);
  return row;
}
