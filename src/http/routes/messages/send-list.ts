/** `POST /api/v1/msg/interactive/list`, operation 7: a list message (src/domain/messages/send-list.ts), through the one send pipeline. */
import { sendList } from '../../../domain/messages/send-list.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendList(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.list, sendRouteOptions(sendList), async (request) =>
    success(await sendMessage(deps, request.accountId, sendList, request.body)),
  );
}
