/**
 * A virtual user completing a flow they received (docs/cloud-api.md §3.4, §6.3): the answer the network posts is
 * an `interactive` `nfm_reply` quoting the flow message, whose `response_json` is a JSON *string* holding
 * the completion payload and the message's `flow_token`.
 */
import type { ReceivedMessage } from './phone-book.ts';
import { isObject, type Json } from './validate-fields.ts';

/** The flow message a completion answers: by its `flow_token`, by its id, or else the newest one. */
function flowMessage(
  received: readonly ReceivedMessage[],
  business: string,
  by: { flowToken?: string; messageId?: string },
): { message: ReceivedMessage; flowToken: string } | undefined {
  for (let i = received.length - 1; i >= 0; i--) {
    const message = received[i]!;
    if (message.from !== business || message.interactiveType !== 'flow' || message.status === 'failed')
      continue;
    const parameters = ((message.content.interactive as Json).action as Json).parameters as Json;
    const flowToken = typeof parameters.flow_token === 'string' ? parameters.flow_token : 'unused';
    if (by.messageId !== undefined && message.id !== by.messageId) continue;
    if (by.flowToken !== undefined && flowToken !== by.flowToken) continue;
    return { message, flowToken };
  }
  return undefined;
}

/** The inbound message content of `flowReply: {flowToken? | messageId?, response}`, or what is wrong with it. */
export function flowReplyContent(
  value: unknown,
  received: readonly ReceivedMessage[],
  business: string,
): Json | string {
  if (!isObject(value)) return '`flowReply` must be an object: {flowToken or messageId, response: {...}}';
  const { flowToken, messageId, response } = value;
  if (flowToken !== undefined && (typeof flowToken !== 'string' || flowToken === '')) {
    return '`flowReply.flowToken` must be a non-empty string';
  }
  if (messageId !== undefined && (typeof messageId !== 'string' || messageId === '')) {
    return '`flowReply.messageId` must be a non-empty string';
  }
  if (flowToken !== undefined && messageId !== undefined) {
    return '`flowReply` takes `flowToken` or `messageId`, not both';
  }
  if (!isObject(response))
    return "`flowReply.response` must be an object: the payload of the flow's complete action";
  const target = flowMessage(received, business, {
    ...(flowToken !== undefined ? { flowToken } : {}),
    ...(messageId !== undefined ? { messageId } : {}),
  });
  if (!target) {
    const which = flowToken
      ? `with flow_token "${flowToken}"`
      : messageId
        ? `with id "${messageId}"`
        : 'at all';
    return `\`flowReply\`: this phone received no flow message from ${business} ${which}`;
  }
  return {
    type: 'interactive',
    context: { from: business, id: target.message.id },
    interactive: {
      type: 'nfm_reply',
      nfm_reply: {
        name: 'flow',
        body: 'Sent',
        response_json: JSON.stringify({ ...response, flow_token: target.flowToken }),
      },
    },
  };
}
