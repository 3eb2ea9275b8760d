/** Request metrics per route pattern (never per raw URL, which would grow without bound). */
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export function installMetrics(app: FastifyInstance): Registry {
  // One registry per app instance, so tests can build several apps in one process.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status code',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });
  return registry;
}

/** What one webhook delivery attempt came to: delivered, to be tried again, or failed for good. */
export interface AttemptMetric {
  outcome: 'succeeded' | 'retry' | 'failed';
  latencyMs: number;
}

/**
 * Webhook delivery attempts, by outcome, and how long receivers took to answer: what an operator
 * watches to see receivers failing before their endpoints are disabled.
 */
export function webhookMetrics(registry: Registry): (attempt: AttemptMetric) => void {
  const attempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: succeeded, retry (to be tried again) or failed',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds',
    help: 'How long a webhook receiver took to answer an attempt, or to fail it',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60],
    registers: [registry],
  });
  return ({ outcome, latencyMs }) => {
    attempts.inc({ outcome });
    latency.observe(latencyMs / 1000);
  };
}
