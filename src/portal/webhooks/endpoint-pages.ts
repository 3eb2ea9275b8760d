/** What the webhook pages share: the account's endpoint, or the "not found" page. */
import { GatewayError } from '../../domain/errors.ts';
import type { WebhookEndpoint } from '../../domain/ports/webhook-endpoints.ts';
import { findEndpoint } from '../../domain/webhook-endpoints.ts';
import type { PortalDeps } from '../deps.ts';

/** The account's endpoint; another account's, or none, is the same "not found". */
export async function ownedEndpointOrPage(
  service: PortalDeps['webhooks'],
  accountId: string,
  id: string,
): Promise<WebhookEndpoint> {
  const row = await findEndpoint(service, accountId, id);
  if (!row) throw new GatewayError('not_found', 'There is no such webhook endpoint in your account.');
  return row;
}
