/** The webhook dispatcher: delivers the events the outbox recorded (src/events/dispatcher.ts). */
import type { Registry } from 'prom-client';
import { createDispatcher, type WebhookDispatcher } from '../../events/dispatcher.ts';
import { webhookMetrics } from '../../http/metrics.ts';
import { guardedAgent } from '../../lib/url-guard.ts';
import type { Core } from '../core.ts';

export function webhookDispatcher(
  core: Pick<Core, 'config' | 'repos' | 'secretKey' | 'logger'>,
  registry: Registry,
): WebhookDispatcher {
  const { webhooks } = core.config;
  return createDispatcher({
    repo: core.repos.webhooks,
    secretKey: core.secretKey,
    agent: guardedAgent(webhooks.allowPrivateUrls, webhooks.timeoutMs),
    retryScheduleMs: webhooks.retryScheduleMs,
    timeoutMs: webhooks.timeoutMs,
    disableAfterMs: webhooks.disableAfterMs,
    concurrency: webhooks.concurrency,
    logger: core.logger,
    onAttempt: webhookMetrics(registry),
  });
}
