/** Traffic older than RETENTION_DAYS is removed in the background, on every node (src/domain/retention.ts). */
import { type RetentionJob, retentionJob } from '../../domain/retention.ts';
import { retentionRepo } from '../../store/retention-repo.ts';
import type { Core } from '../core.ts';

export function retention(core: Pick<Core, 'config' | 'store' | 'logger'>): RetentionJob {
  return retentionJob({
    store: retentionRepo(core.store.db, core.config.dataDir),
    maxAgeDays: core.config.retentionDays,
    now: Date.now,
    logger: core.logger,
  });
}
