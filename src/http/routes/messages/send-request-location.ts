/** `POST /api/v1/msg/request_location`, operation 4: asking for the user's location (src/domain/messages/send-request-location.ts), through the one send pipeline. */
import { sendRequestLocation } from '../../../domain/messages/send-request-location.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendRequestLocation(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.request_location, sendRouteOptions(sendRequestLocation), async (request) =>
    success(await sendMessage(deps, request.accountId, sendRequestLocation, request.body)),
  );
}
