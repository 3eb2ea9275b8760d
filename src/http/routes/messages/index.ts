/** The message routes: the send operations in the order of docs/contract.md, then a sent message's status. */

import type { MessagesStore } from '../../../domain/ports/messages.ts';
import type { SendDeps } from '../../../domain/send-message.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerGetMessage } from './get-message.ts';
import { registerSendButtons } from './send-buttons.ts';
import { registerSendContact } from './send-contact.ts';
import { registerSendFlow } from './send-flow.ts';
import { registerSendList } from './send-list.ts';
import { registerSendLocation } from './send-location.ts';
import { registerSendMedia } from './send-media.ts';
import { registerSendRequestLocation } from './send-request-location.ts';
import { registerSendTemplate } from './send-template.ts';
import { registerSendText } from './send-text.ts';

export function registerMessageRoutes(app: TypedApp, deps: SendDeps, messages: MessagesStore): void {
  registerSendText(app, deps);
  registerSendMedia(app, deps);
  registerSendLocation(app, deps);
  registerSendRequestLocation(app, deps);
  registerSendContact(app, deps);
  registerSendButtons(app, deps);
  registerSendList(app, deps);
  registerSendFlow(app, deps);
  registerSendTemplate(app, deps);
  registerGetMessage(app, messages);
}
