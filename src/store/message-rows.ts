/** Sent messages between their rows and the domain's terms (src/domain/ports/messages.ts). */
import type { MessageClaim, SentMessage } from '../domain/ports/messages.ts';
import type { MessagesTable } from './schema.ts';

export function sentMessageOf(row: MessagesTable): SentMessage {
  return {
    id: row.id,
    accountId: row.account_id,
    clientMessageId: row.client_message_id,
    requestHash: row.request_hash,
    kind: row.kind,
    fromPhone: row.from_phone,
    toPhone: row.to_phone,
    content: row.content,
    waId: row.wa_id,
    status: row.status,
    statusRank: row.status_rank,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type ClaimRow = Omit<MessagesTable, 'status' | 'status_rank' | 'wa_id' | 'error'>;

export function claimRowOf(claim: MessageClaim): ClaimRow {
  return {
    id: claim.id,
    account_id: claim.accountId,
    client_message_id: claim.clientMessageId,
    request_hash: claim.requestHash,
    kind: claim.kind,
    from_phone: claim.fromPhone,
    to_phone: claim.toPhone,
    content: claim.content,
    created_at: claim.createdAt,
    updated_at: claim.updatedAt,
  };
}
