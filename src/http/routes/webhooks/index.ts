/**
 * Webhook endpoints of an account: create, list, read, update, delete, rotate the signing secret, send a
 * test event, list deliveries with their attempts, redeliver one, replay everything since a time.
 */
import type { TypedApp } from '../../typed-app.ts';
import { registerCreateEndpoint } from './create-endpoint.ts';
import { registerDeleteEndpoint } from './delete-endpoint.ts';
import { registerGetEndpoint } from './get-endpoint.ts';
import { registerListDeliveries } from './list-deliveries.ts';
import { registerListEndpoints } from './list-endpoints.ts';
import { registerRedeliver } from './redeliver.ts';
import { registerReplay } from './replay.ts';
import { registerRotateSecret } from './rotate-secret.ts';
import { registerSendTest } from './send-test.ts';
import { registerUpdateEndpoint } from './update-endpoint.ts';
import type { WebhookRouteDeps } from './webhook-route-shapes.ts';

export type { WebhookRouteDeps } from './webhook-route-shapes.ts';

export function registerWebhookRoutes(app: TypedApp, deps: WebhookRouteDeps): void {
  registerCreateEndpoint(app, deps);
  registerListEndpoints(app, deps);
  registerGetEndpoint(app, deps);
  registerUpdateEndpoint(app, deps);
  registerDeleteEndpoint(app, deps);
  registerRotateSecret(app, deps);
  registerSendTest(app, deps);
  registerListDeliveries(app, deps);
  registerRedeliver(app, deps);
  registerReplay(app, deps);
}
