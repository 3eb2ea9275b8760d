/**
 * A virtual user tapping a quick-reply button of a template message they received (docs/cloud-api.md §3.4):
 * the network posts a `button` message quoting the template message, with `button.payload` the payload the
 * send gave that button (else its label) and `button.text` its label. A carousel card's quick reply is
 * named by its card as well as its index.
 */
import type { ReceivedMessage } from './phone-book.ts';
import type { FilledButton } from './templates/filled-template.ts';
import { isObject, type Json } from './validate-fields.ts';

type QuickReply = Extract<FilledButton, { type: 'quick_reply' }>;

const isPosition = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

/** The quick reply at `index` (of card `card`, when given) of a template message, or why there is none. */
function quickReplyOf(
  message: ReceivedMessage,
  card: number | undefined,
  index: number,
): QuickReply | string {
  const template = message.template;
  if (!template) return 'it is not a template message the phone can draw';
  if (card === undefined && template.cards)
    return '`templateButton.card` is required: the message is a carousel';
  const buttons = card === undefined ? template.buttons : template.cards?.[card]?.buttons;
  if (!buttons) return `\`templateButton.card\`: the message has no card ${card}`;
  const button = buttons.find((b) => b.index === index);
  if (button?.type !== 'quick_reply') {
    const where = card === undefined ? '' : ` of card ${card}`;
    return `\`templateButton.index\`: button ${index}${where} is ${button ? `a ${button.type} button` : 'not there'}; only a quick reply sends a reply`;
  }
  return button;
}

/** The inbound content of `templateButton: {messageId?, card?, index}`, or what is wrong with it. */
export function templateButtonContent(
  value: unknown,
  received: readonly ReceivedMessage[],
  business: string,
): Json | string {
  if (!isObject(value)) return '`templateButton` must be an object: {messageId?, card?, index}';
  const { messageId, card, index } = value;
  if (messageId !== undefined && (typeof messageId !== 'string' || messageId === '')) {
    return '`templateButton.messageId` must be the id of a template message this phone received';
  }
  if (!isPosition(index)) return '`templateButton.index` must be the position of a quick reply, 0 first';
  if (card !== undefined && !isPosition(card))
    return '`templateButton.card` must be a card position, 0 first';
  let why = `this phone received no template message from ${business}${messageId ? ` with id "${messageId}"` : ''}`;
  // The newest message first: a tap without a message id answers the latest template that has the button.
  for (let i = received.length - 1; i >= 0; i--) {
    const message = received[i]!;
    if (message.from !== business || message.type !== 'template' || message.status === 'failed') continue;
    if (messageId !== undefined && message.id !== messageId) continue;
    const button = quickReplyOf(message, card, index);
    if (typeof button === 'string') {
      why = button;
      continue;
    }
    return {
      type: 'button',
      context: { from: business, id: message.id },
      button: { payload: button.payload, text: button.text },
    };
  }
  return why.startsWith('`') ? why : `\`templateButton\`: ${why}`;
}
