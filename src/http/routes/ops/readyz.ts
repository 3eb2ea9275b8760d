/** `GET /readyz`: readiness; 503 while the database does not answer, so a load balancer sends no traffic. */
import { sql } from 'kysely';
import type { Store } from '../../../store/connect.ts';
import type { TypedApp } from '../../typed-app.ts';

export function registerReadyz(app: TypedApp, store: Store): void {
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await sql`select 1`.execute(store.db);
      return { status: 'ready', database: store.dialect };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: store.dialect });
    }
  });
}
