/**
 * Read receipts (docs/sending.md#read-receipts-and-typing): the business tells the user it read a message
 * they sent (blue ticks on their phone), optionally with "typing…" while an answer is written. Only a
 * message the account itself received can be marked, from the number it was sent to; marking one twice
 * is harmless, so an unconfirmed answer is simply retried by the client.
 */
import { normalizePhone } from '../lib/phone.ts';
import { GatewayError } from './errors.ts';
import { managementNetworkError } from './management-network-error.ts';
import type { InboundStore } from './ports/inbound.ts';
import type { NetworkConnector } from './ports/network.ts';
import { resolveSender, type SenderDeps } from './senders.ts';

export interface MarkReadDeps extends SenderDeps {
  inbound: Pick<InboundStore, 'findOfAccount'>;
  connector: Pick<NetworkConnector, 'markRead'>;
}

export interface MarkReadRequest {
  from: string;
  /** The network id (`wamid.…`) of the received message, as its `message.received` event named it. */
  messageId: string;
  typing?: boolean | undefined;
}

export interface MarkReadResult {
  messageId: string;
  status: 'READ';
  typing: boolean;
}

const RECEIPT = { noun: 'read receipt', checkFirst: 'mark the message read again (it is harmless)' };

export async function markRead(
  deps: MarkReadDeps,
  accountId: string,
  request: MarkReadRequest,
): Promise<MarkReadResult> {
  const from = normalizePhone(request.from);
  if (!from)
    throw new GatewayError('invalid_request', '`from` must be a valid phone number with country code', {
      field: 'from',
    });
  const received = await deps.inbound.findOfAccount(accountId, request.messageId);
  if (!received)
    throw new GatewayError('not_found', `No message "${request.messageId}" was received by this account`, {
      field: 'messageId',
    });
  if (received.businessPhone !== from)
    throw new GatewayError(
      'invalid_request',
      `Message "${request.messageId}" was sent to +${received.businessPhone}, not to +${from}`,
      { field: 'from' },
    );
  const sender = await resolveSender(deps, accountId, from, received.userPhone);
  const typing = request.typing === true;
  const result = await deps.connector.markRead(sender.credentials, request.messageId, typing);
  if (!result.ok) throw managementNetworkError(RECEIPT, 'read receipt', result.failure);
  return { messageId: request.messageId, status: 'READ', typing };
}
