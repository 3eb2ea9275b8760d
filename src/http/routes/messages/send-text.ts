/** `POST /api/v1/msg/message/text`, operation 1: free-form text (src/domain/messages/send-text.ts), through the one send pipeline. */
import { sendText } from '../../../domain/messages/send-text.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendText(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.text, sendRouteOptions(sendText), async (request) =>
    success(await sendMessage(deps, request.accountId, sendText, request.body)),
  );
}
