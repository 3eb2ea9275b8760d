/** Removing traffic older than the retention age (docs/operations.md, Retention), a batch at a time. */
export interface RetentionStore {
  /**
   * Removes up to `limit` of the oldest records of each kind made before `cutoffMs` (sent messages with
   * their status history, received messages, stored media, webhook events with their deliveries), and
   * returns the most it removed of any kind: a result below `limit` means nothing older is left.
   */
  removeBefore(cutoffMs: number, limit: number): Promise<number>;
}
