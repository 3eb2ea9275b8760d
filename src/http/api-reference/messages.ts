/** The reference of the message operations: the sends, a message's status, marking a message read (docs/sending.md). */

import {
  NETWORK_ERRORS,
  NOT_JOINED,
  type OperationReference,
  type ReferenceTable,
} from './operation-reference.ts';
import { successBody } from './responses.ts';

const FROM = '+14155550100';
const TO = '+254712345678';
const WAMID = 'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAERgSNUI0RDQ5QjdGRTZBNDg2NkE1AA==';

/** Every send answers the same way and can fail the same ways (docs/sending.md). */
function send(
  operationId: string,
  description: string,
  messageId: string,
  fields: Record<string, unknown>,
  extraErrors: OperationReference['errors'] = {},
): OperationReference {
  return {
    operationId,
    description: `${description}\n\n\`messageId\` is yours: sending the same \`messageId\` again answers the first outcome and sends nothing (a retry is always safe). \`to\` is a phone number, or the \`userId\` of a user who keeps their number from you. On the sandbox number the user must have joined your sandbox. Delivery and read statuses follow as \`message.status\` events to your webhook endpoints.`,
    success: {
      status: 200,
      description: 'The network took the message: `waId` is its id there.',
      example: successBody({
        messageId,
        waId: WAMID,
        status: 'SENT',
        statusDesc: 'Message sent successfully',
      }),
    },
    errors: {
      400: '`to` must be a valid phone number with country code',
      403: NOT_JOINED,
      409: `messageId "${messageId}" is contended; retry shortly`,
      422: `No conversation with ${TO} is open: the user has not written to ${FROM} in the last 24 hours, so the first message must be a template message`,
      ...NETWORK_ERRORS,
      ...extraErrors,
    },
    requestExample: { messageId, from: FROM, to: TO, ...fields },
    refusals: 'send',
  };
}

export const MESSAGE_REFERENCE: ReferenceTable = {
  'POST /api/v1/msg/message/text': send(
    'sendText',
    'Sends a free-form text (at most 4096 characters), inside the 24-hour conversation the user opened by writing.',
    'order-42',
    { message: 'Your order #42 has shipped.' },
  ),
  'POST /api/v1/msg/media': send(
    'sendMedia',
    'Sends an image, video, audio, document or sticker, by an https `mediaUrl` the network fetches, or by the `mediaId` of an upload (POST /api/v1/media/{phone}).',
    'menu-1',
    {
      mediaType: 'IMAGE',
      mediaUrl: 'https://upload.wikimedia.org/wikipedia/commons/4/47/PNG_transparency_demonstration_1.png',
      caption: 'Our menu',
    },
    { 404: 'no uploaded media with mediaId "upl_01m89y6szambzfdrp1a8887tkt" in this account' },
  ),
  'POST /api/v1/msg/location': send(
    'sendLocation',
    'Sends a location pin with an optional name and address.',
    'pin-1',
    { latitude: '-1.2921', longitude: '36.8219', name: 'Nairobi shop', address: 'Kenyatta Ave 1' },
  ),
  'POST /api/v1/msg/request_location': send(
    'requestLocation',
    'Asks the user to share a location; the answer comes as a `message.received` event of type location.',
    'where-1',
    { text: 'Where should we deliver?' },
  ),
  'POST /api/v1/msg/contact': send('sendContact', 'Sends a contact card.', 'card-1', {
    name: { formattedName: 'Jane Doe' },
    phones: [{ phone: '+254700000000', type: 'WORK' }],
  }),
  'POST /api/v1/msg/interactive/buttons': send(
    'sendButtons',
    'Sends a text with one to three quick-reply buttons; a tap comes back as a `message.received` event with the button id.',
    'confirm-1',
    {
      text: 'Confirm your booking?',
      buttons: [
        { id: 'yes', title: 'Yes' },
        { id: 'no', title: 'No' },
      ],
    },
  ),
  'POST /api/v1/msg/interactive/list': send(
    'sendList',
    'Sends a list menu: up to ten rows in up to ten sections.',
    'menu-2',
    {
      body: 'Pick a delivery slot',
      buttons: [
        {
          sectionTitle: 'Tomorrow',
          sectionItems: [
            { id: 'am', title: 'Morning' },
            { id: 'pm', title: 'Afternoon' },
          ],
        },
      ],
    },
  ),
  'POST /api/v1/msg/interactive/flows': send(
    'sendFlow',
    'Sends a message whose button opens a flow of this account (its id, or its network id); a DRAFT flow only with `mode: "draft"`.',
    'signup-1',
    { text: 'Please sign up', flowId: '1', flowCta: 'Start', screen: 'SIGN_UP' },
    { 404: 'no flow "7" in this account (`flowId` is the flow\'s id or its waFlowId)' },
  ),
  'POST /api/v1/msg/template': send(
    'sendTemplate',
    'Sends an APPROVED template of the sending number with its variables filled in: the one message allowed with no open conversation. An authentication template takes its code as its one body value; a carousel template takes one entry of `cards` per card (docs/sending.md).',
    'tpl-1',
    {
      template: {
        name: 'order_update',
        language: 'en_US',
        components: { body: { placeholders: ['Jane', 'today'] } },
      },
    },
    {
      404: 'No template named "order_update" in language en_US on +14155550100 in this account',
      422: 'Template "order_update" (en_US) is PENDING; only APPROVED templates can be sent (and ones the network has FLAGGED or LOCKED)',
    },
  ),
  'POST /api/v1/msg/reaction': send(
    'sendReaction',
    'Reacts with an emoji to a message the user sent (`replyTo` is its network id, as `message.received` gave it); an empty emoji removes the reaction.',
    'react-1',
    { replyTo: 'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAEhggQ0Y1QjM2RUE4RDg5', emoji: '👍' },
  ),
  'POST /api/v1/msg/interactive/cta_url': send(
    'sendCtaUrl',
    'Sends a text with one button that opens an https link.',
    'track-1',
    { body: 'Track your order', buttonText: 'Track', url: 'https://shop.example.org/track/42' },
  ),
  'GET /api/v1/msg/message/{messageId}': {
    operationId: 'getMessage',
    description:
      'The status of a message this account sent (SENT, DELIVERED, READ or FAILED, with the reason) and its timeline of status changes.',
    success: {
      status: 200,
      description: 'The message and its timeline.',
      example: successBody({
        messageId: 'order-42',
        waId: WAMID,
        type: 'text',
        from: '14155550100',
        to: '254712345678',
        status: 'READ',
        statusDesc: 'Message read by the recipient',
        createdAt: '2026-11-25T18:06:40.201Z',
        updatedAt: '2026-11-25T18:06:41.240Z',
        timeline: [
          { status: 'SENT', timestamp: '2026-11-25T18:06:40.218' },
          { status: 'DELIVERED', timestamp: '2026-11-25T18:06:40.731' },
          { status: 'READ', timestamp: '2026-11-25T18:06:41.240' },
        ],
      }),
    },
    errors: {
      404: 'no message with messageId "order-42" in this account',
      414: 'a path segment of the URL is too long',
    },
  },
  'POST /api/v1/msg/read': {
    operationId: 'markRead',
    description:
      'Marks a message the user sent as read (blue ticks on their phone), optionally showing a typing indicator for up to 25 seconds or until your next message.',
    success: {
      status: 200,
      description: 'Marked read on the network.',
      example: successBody({
        messageId: 'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAEhggQ0Y1QjM2RUE4RDg5',
        status: 'READ',
        typing: false,
      }),
    },
    errors: {
      400: '`messageId` is required',
      404: 'No message "wamid.HBgMMjU0NzEyMzQ1Njc4FQIAEhggQ0Y1QjM2RUE4RDg5" was received by this account',
      502: NETWORK_ERRORS[502],
      503: NETWORK_ERRORS[503],
    },
    requestExample: { from: FROM, messageId: 'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAEhggQ0Y1QjM2RUE4RDg5' },
  },
};
