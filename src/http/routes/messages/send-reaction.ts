/** `POST /api/v1/msg/reaction`: an emoji on an earlier message (src/domain/messages/send-reaction.ts), through the one send pipeline. */
import { sendReaction } from '../../../domain/messages/send-reaction.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendReaction(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.reaction, sendRouteOptions(sendReaction), async (request) =>
    success(await sendMessage(deps, request.accountId, sendReaction, request.body)),
  );
}
