/** `GET /readyz`: readiness; 503 while the database does not answer, so a load balancer sends no traffic. */
import type { TypedApp } from '../../typed-app.ts';

/** The database as readiness sees it: its kind, and a round trip that fails when it does not answer. */
export interface DatabaseProbe {
  dialect: string;
  ping(): Promise<void>;
}

export function registerReadyz(app: TypedApp, database: DatabaseProbe): void {
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready', database: database.dialect };
    } catch {
      return reply.code(503).send({ status: 'unavailable', database: database.dialect });
    }
  });
}
