/** `POST /api/v1/msg/interactive/buttons`, operation 6: reply buttons (src/domain/messages/send-buttons.ts), through the one send pipeline. */
import { sendButtons } from '../../../domain/messages/send-buttons.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendButtons(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.buttons, sendRouteOptions(sendButtons), async (request) =>
    success(await sendMessage(deps, request.accountId, sendButtons, request.body)),
  );
}
