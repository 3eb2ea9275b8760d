/** The Cloud API connector: Meta's Graph API, or the in-process simulator's copy of it. */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.ts';
import type { NetworkConnector } from '../domain/ports/network.ts';
import { createCloudConnector } from '../network/cloud-connector.ts';
import { DEFAULT_RETRY_POLICY } from '../network/retry-policy.ts';
import type { PacingOptions } from '../network/send-pacer.ts';
import type { Store } from '../store/connect.ts';
import { postgresSendSlots } from '../store/send-slots-repo.ts';
import { selfUrl } from './self-url.ts';

/**
 * On PostgreSQL every node books its sends in the shared table, so a number has one pace whichever node
 * sends (docs/adr/0020-shared-send-pacing.md); on SQLite (one process) the pacer keeps its book in memory.
 */
function pacing(config: Readonly<Config>, store: Store): PacingOptions {
  const shared = store.dialect === 'postgres';
  return {
    maxSendsPerSecond: config.graph.maxSendsPerSecond,
    maxWaitMs: config.graph.maxPacingWaitMs,
    ...(shared ? { slots: postgresSendSlots(store.db), shared } : {}),
  };
}

export function cloudConnector(
  app: FastifyInstance,
  config: Readonly<Config>,
  store: Store,
): NetworkConnector {
  return createCloudConnector({
    baseUrl: config.graph.baseUrl ?? (() => `${selfUrl(app, config.port)}/simulator`),
    apiVersion: config.graph.apiVersion,
    timeoutMs: config.graph.timeoutMs,
    pacing: pacing(config, store),
    retry: {
      attempts: config.graph.retryAttempts,
      budgetMs: config.graph.retryBudgetMs,
      baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs,
    },
    // Media download URLs pass the webhook URLs' address guard (src/network/cloud-media.ts).
    allowPrivateMediaUrls: config.webhooks.allowPrivateUrls,
  });
}
