/** `POST /api/v1/msg/interactive/flows`, operation 8: a WhatsApp Flow (src/domain/messages/send-flow.ts), through the one send pipeline. */
import { sendFlow } from '../../../domain/messages/send-flow.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendFlow(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.flow, sendRouteOptions(sendFlow), async (request) =>
    success(await sendMessage(deps, request.accountId, sendFlow, request.body)),
  );
}
