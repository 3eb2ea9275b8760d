/**
 * The message routes: the send operations in the order of docs/contract.md and those added since, then a
 * sent message's status, then read receipts.
 */

import type { MarkReadDeps } from '../../../domain/mark-read.ts';
import type { MessagesStore } from '../../../domain/ports/messages.ts';
import type { SendDeps } from '../../../domain/send-message.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerGetMessage } from './get-message.ts';
import { registerMarkRead } from './mark-read.ts';
import { registerSendButtons } from './send-buttons.ts';
import { registerSendContact } from './send-contact.ts';
import { registerSendCtaUrl } from './send-cta-url.ts';
import { registerSendFlow } from './send-flow.ts';
import { registerSendList } from './send-list.ts';
import { registerSendLocation } from './send-location.ts';
import { registerSendMedia } from './send-media.ts';
import { registerSendReaction } from './send-reaction.ts';
import { registerSendRequestLocation } from './send-request-location.ts';
import { registerSendTemplate } from './send-template.ts';
import { registerSendText } from './send-text.ts';

export function registerMessageRoutes(
  app: TypedApp,
  deps: SendDeps,
  messages: MessagesStore,
  receipts: MarkReadDeps,
): void {
  registerSendText(app, deps);
  registerSendMedia(app, deps);
  registerSendLocation(app, deps);
  registerSendRequestLocation(app, deps);
  registerSendContact(app, deps);
  registerSendButtons(app, deps);
  registerSendList(app, deps);
  registerSendFlow(app, deps);
  registerSendTemplate(app, deps);
  registerSendReaction(app, deps);
  registerSendCtaUrl(app, deps);
  registerGetMessage(app, messages);
  registerMarkRead(app, receipts);
}
