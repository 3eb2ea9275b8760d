/**
 * The eight free-form send operations of docs/contract.md, in its order, the template send (docs/contract.md
 * §3), then the sends added since: reactions and the call-to-action URL button (docs/sending.md).
 */
import { sendButtons } from './send-buttons.ts';
import { sendContact } from './send-contact.ts';
import { sendCtaUrl } from './send-cta-url.ts';
import { sendFlow } from './send-flow.ts';
import { sendList } from './send-list.ts';
import { sendLocation } from './send-location.ts';
import { sendMedia } from './send-media.ts';
import type { SendOperation } from './send-operation.ts';
import { sendReaction } from './send-reaction.ts';
import { sendRequestLocation } from './send-request-location.ts';
import { sendTemplate } from './send-template.ts';
import { sendText } from './send-text.ts';

export const sendOperations: readonly SendOperation<never, unknown>[] = [
  sendText,
  sendMedia,
  sendLocation,
  sendRequestLocation,
  sendContact,
  sendButtons,
  sendList,
  sendFlow,
  sendTemplate,
  sendReaction,
  sendCtaUrl,
];
