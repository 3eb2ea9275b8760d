/**
 * Message statuses and their order. A status only moves forward: SENT < DELIVERED < READ. FAILED ranks with
 * READ, so a failure ends a message that was not read and nothing moves a failed message (decisions §6).
 * PENDING is the gateway's own: the send is reserved and the network has not answered yet.
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

export interface NetworkErrorInfo {
  code: number;
  title: string;
  details?: string;
}
