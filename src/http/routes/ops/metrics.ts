/** `GET /metrics`: the Prometheus metrics of this process, in its text format. */
import type { Registry } from 'prom-client';
import type { TypedApp } from '../../typed-app.ts';

export function registerMetrics(app: TypedApp, registry: Registry): void {
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
