/** `POST /api/v1/msg/template`, the template send (src/domain/messages/send-template.ts), through the one send pipeline. */
import { sendTemplate } from '../../../domain/messages/send-template.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendTemplate(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.template, sendRouteOptions(sendTemplate), async (request) =>
    success(await sendMessage(deps, request.accountId, sendTemplate, request.body)),
  );
}
