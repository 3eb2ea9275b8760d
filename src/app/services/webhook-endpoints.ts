/** Webhook endpoints of an account (src/domain/webhook-endpoints.ts): the API and the portal share it. */
import type { WebhookEndpointDeps } from '../../domain/webhook-endpoints.ts';
import { webhookEndpointsStore } from '../../store/webhook-endpoints-store.ts';
import type { Core } from '../core.ts';

/** A rotated secret keeps signing beside the new one for a day, so receivers can switch without a gap. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function webhookEndpointService(
  core: Pick<Core, 'config' | 'repos' | 'secretKey' | 'wake'>,
): WebhookEndpointDeps {
  return {
    endpoints: webhookEndpointsStore(core.repos.webhooks),
    secretKey: core.secretKey,
    allowPrivateUrls: core.config.webhooks.allowPrivateUrls,
    rotationOverlapMs: ROTATION_OVERLAP_MS,
    wakeDispatcher: core.wake,
  };
}
