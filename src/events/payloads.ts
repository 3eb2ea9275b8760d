/**
 * Event payloads (docs/contract.md §6): the flat inbound shape of the original service, and message statuses.
 * Pure functions from the domain's messages to the JSON a business receives.
 */

import { describeStatus } from '../domain/message-status.ts';
import type { InboundMessage } from '../domain/ports/inbound.ts';
import type { StatusSubject } from '../domain/ports/messages.ts';
import { withOwnTemplateNames } from '../domain/templates/sandbox-names.ts';
import { isUserId } from '../lib/user-id.ts';

export { type EventType, eventTypes } from '../domain/event-types.ts';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});

/** `interactive` flattened: the reply's id/title beside its type, a flow's answers parsed from JSON. */
function interactiveOf(raw: Json): Json {
  const type = String(raw.type ?? '');
  if (type === 'button_reply' || type === 'list_reply') return { type, ...obj(raw[type]) };
  if (type === 'nfm_reply') {
    const reply = obj(raw.nfm_reply);
    let response: unknown = reply.response_json;
    try {
      response = JSON.parse(String(reply.response_json));
    } catch {
      // Kept as the network sent it.
    }
    return { type, name: reply.name, body: reply.body, response };
  }
  return raw;
}

export function inboundPayload(row: InboundMessage, mediaCopy?: { url: string } | { error: string }): Json {
  const message = JSON.parse(row.payload) as Json;
  const type = row.type;
  const content = message[type];
  const payload: Json = {
    messageId: row.waId,
    // The key is the business-scoped user id when the network withheld the number (docs/cloud-api.md §10).
    from: isUserId(row.userPhone) ? null : row.userPhone,
    ...(row.userId ? { userId: row.userId } : {}),
    ...(row.username ? { username: row.username } : {}),
    to: row.businessPhone,
    profileName: row.profileName,
    type: type.toUpperCase(),
    timestamp: new Date(row.receivedAt).toISOString(),
  };
  switch (type) {
    case 'text':
      payload.text = obj(content).body;
      break;
    case 'interactive':
      payload.interactive = interactiveOf(obj(content));
      break;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker': {
      const media = obj(content);
      payload[type] = {
        id: media.id,
        mimeType: media.mime_type,
        ...(media.caption !== undefined ? { caption: media.caption } : {}),
        ...(media.filename !== undefined ? { filename: media.filename } : {}),
        ...(mediaCopy && 'url' in mediaCopy ? { url: mediaCopy.url } : {}),
        ...(mediaCopy && 'error' in mediaCopy ? { url: null, mediaError: mediaCopy.error } : {}),
      };
      break;
    }
    case 'unsupported':
      // A type the gateway does not know keeps the network's name for it; the network's own
      // `unsupported` messages have none to give.
      payload.unsupported = { type: message.type === 'unsupported' ? null : (message.type ?? null) };
      break;
    default:
      payload[type] = content;
  }
  const context = obj(message.context);
  const replyContext = {
    ...(typeof context.id === 'string' ? { messageId: context.id } : {}),
    ...(context.forwarded === true ? { forwarded: true } : {}),
    ...(context.frequently_forwarded === true ? { frequentlyForwarded: true } : {}),
  };
  if (Object.keys(replyContext).length > 0) payload.context = replyContext;
  // Everything the network said, as it said it: fields the gateway does not model (an ad's `referral`,
  // the `errors` of an unsupported message, identity fields) reach the business instead of being dropped.
  payload.network = message;
  return payload;
}

export function statusPayload(
  message: StatusSubject,
  status: string,
  at: number,
  error: string | null,
  /** The network's status object as it arrived (JSON), when the network reported this status. */
  network?: string | null,
): Json {
  // The network names a sandbox template by its tagged name; the account's receiver sees its own.
  const own = (json: string) => JSON.parse(withOwnTemplateNames(json, message.accountId));
  return {
    messageId: message.clientMessageId,
    waId: message.waId,
    from: message.fromPhone,
    to: message.toPhone,
    status,
    statusDesc: describeStatus(status),
    timestamp: new Date(at).toISOString(),
    ...(error ? { error: own(error) } : {}),
    // Everything the network said of this status (pricing, conversation, ...), as it said it.
    ...(network ? { network: own(network) } : {}),
  };
}
