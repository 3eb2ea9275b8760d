/** Liveness, readiness and Prometheus metrics: unauthenticated, for load balancers and scrapers. */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Registry } from 'prom-client';
import type { Store } from '../../store/connect.ts';

export function registerOpsRoutes(app: FastifyInstance, store: Store, registry: Registry): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(store.db);
      return { status: 'ready', database: store.dialect };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: store.dialect });
    }
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
}
