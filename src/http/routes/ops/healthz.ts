/** `GET /healthz`: liveness; answers while the process runs, whatever the database does. */
import type { TypedApp } from '../../typed-app.ts';

export function registerHealthz(app: TypedApp): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
}
