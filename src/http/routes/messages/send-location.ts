/** `POST /api/v1/msg/location`, operation 3: a location (src/domain/messages/send-location.ts), through the one send pipeline. */
import { sendLocation } from '../../../domain/messages/send-location.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendLocation(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.location, sendRouteOptions(sendLocation), async (request) =>
    success(await sendMessage(deps, request.accountId, sendLocation, request.body)),
  );
}
