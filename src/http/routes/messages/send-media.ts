/** `POST /api/v1/msg/media`, operation 2: media by URL (src/domain/messages/send-media.ts), through the one send pipeline. */
import { sendMedia } from '../../../domain/messages/send-media.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendMedia(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.media, sendRouteOptions(sendMedia), async (request) =>
    success(await sendMessage(deps, request.accountId, sendMedia, request.body)),
  );
}
