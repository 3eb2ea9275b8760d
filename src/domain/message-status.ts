/**
 * Message statuses and their order. A status only moves forward: SENT < DELIVERED < READ. FAILED ranks with
 * READ, so a failure ends a message that was not read and nothing moves a failed message (docs/contract.md §6).
 * PENDING is the gateway's own: the send is reserved and the network has not answered yet, or its answer was
 * lost and the outcome is not yet known (a PENDING message with an error: docs/adr/0013).
 */
export const messageStatuses = ['PENDING', 'SENT', 'DELIVERED', 'READ', 'FAILED'] as const;
export type MessageStatus = (typeof messageStatuses)[number];

const rank: Record<MessageStatus, number> = { PENDING: 0, SENT: 1, DELIVERED: 2, READ: 3, FAILED: 3 };

export function statusRank(status: MessageStatus): number {
  return rank[status];
}

/** Cloud API status names (`sent`, `delivered`, ...) → ours; `played` (voice notes) counts as READ. */
export function fromNetworkStatus(status: string): MessageStatus | undefined {
  switch (status) {
    case 'sent':
      return 'SENT';
    case 'delivered':
      return 'DELIVERED';
    case 'read':
    case 'played':
      return 'READ';
    case 'failed':
      return 'FAILED';
    default:
      return undefined;
  }
}

/** The words the API puts beside a status (`statusDesc`), wherever a status is shown. */
export const statusDescriptions: Record<MessageStatus, string> = {
  PENDING: 'Message is being handed to the network',
  SENT: 'Message sent successfully',
  DELIVERED: 'Message delivered to the recipient',
  READ: 'Message read by the recipient',
  FAILED: 'Message could not be delivered',
};

export function describeStatus(status: string): string {
  return statusDescriptions[status as MessageStatus] ?? status;
}

/** Beside a PENDING message whose send was not confirmed: the network's status reports will settle it. */
export const UNKNOWN_OUTCOME_DESCRIPTION =
  'Outcome not yet known: the network did not confirm the message; its status reports will settle it';

/**
 * Whether the network may or may not have taken the message and none of its status reports has said so
 * yet: still PENDING, with the reason the send's answer was lost recorded (docs/adr/0013).
 */
export function outcomeUnknown(message: { status: string; error: string | null }): boolean {
  return message.status === 'PENDING' && message.error !== null;
}

/** `statusDesc` of a stored message: its status's words, or that its outcome is not yet known. */
export function describeMessage(message: { status: string; error: string | null }): string {
  return outcomeUnknown(message) ? UNKNOWN_OUTCOME_DESCRIPTION : describeStatus(message.status);
}

export interface NetworkErrorInfo {
  code: number;
  title: string;
  details?: string;
}
