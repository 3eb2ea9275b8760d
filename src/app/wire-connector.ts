/** The Cloud API connector: Meta's Graph API, or the in-process simulator's copy of it. */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config/config.ts';
import type { NetworkConnector } from '../domain/ports/network.ts';
import { createCloudConnector } from '../network/cloud-connector.ts';
import { DEFAULT_RETRY_POLICY } from '../network/retry-policy.ts';
import { selfUrl } from './self-url.ts';

export function cloudConnector(app: FastifyInstance, config: Readonly<Config>): NetworkConnector {
  return createCloudConnector({
    baseUrl: config.graph.baseUrl ?? (() => `${selfUrl(app, config.port)}/simulator`),
    apiVersion: config.graph.apiVersion,
    timeoutMs: config.graph.timeoutMs,
    pacing: { maxSendsPerSecond: config.graph.maxSendsPerSecond, maxWaitMs: config.graph.maxPacingWaitMs },
    retry: {
      attempts: config.graph.retryAttempts,
      budgetMs: config.graph.retryBudgetMs,
      baseDelayMs: DEFAULT_RETRY_POLICY.baseDelayMs,
    },
    // Media download URLs pass the webhook URLs' address guard (src/network/cloud-media.ts).
    allowPrivateMediaUrls: config.webhooks.allowPrivateUrls,
  });
}
