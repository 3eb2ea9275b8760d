/** `POST /api/v1/msg/contact`, operation 5: a contact card (src/domain/messages/send-contact.ts), through the one send pipeline. */
import { sendContact } from '../../../domain/messages/send-contact.ts';
import { type SendDeps, sendMessage } from '../../../domain/send-message.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { sendPaths } from './send-paths.ts';
import { sendRouteOptions } from './send-route-options.ts';

export function registerSendContact(app: TypedApp, deps: SendDeps): void {
  app.post(sendPaths.contact, sendRouteOptions(sendContact), async (request) =>
    success(await sendMessage(deps, request.accountId, sendContact, request.body)),
  );
}
