/** `POST /api/v1/msg/interactive/cta_url`: a button that opens a link (src/domain/messages/send-cta-url.ts), through the one send pipeline. */
import { sendCtaUrl } from '../../../domain/messages/send-cta-url.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendCtaUrl(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.cta_url, sendRouteOptions(sendCtaUrl), async (request) =>
    success(await sendMessage(deps, request.accountId, sendCtaUrl, request.body)),
  );
}
