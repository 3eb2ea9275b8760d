/**
 * The template statuses the network still delivers (docs/cloud-api.md §3.6). Besides APPROVED:
 * - FLAGGED: the template drew negative feedback and may be paused or disabled later; until then the
 *   network sends it, and a PAUSED or DISABLED status follows if it comes to that;
 * - LOCKED: the template can no longer be edited; sending it is not affected.
 * Every other status (PENDING, REJECTED, PAUSED, DISABLED, IN_APPEAL, ARCHIVED, DELETED, ...) is one the
 * network refuses to send, so the gateway refuses it first, naming the status.
 */
export const SENDABLE_TEMPLATE_STATUSES: ReadonlySet<string> = new Set(['APPROVED', 'FLAGGED', 'LOCKED']);

export function isSendableTemplateStatus(status: string): boolean {
  return SENDABLE_TEMPLATE_STATUSES.has(status);
}
