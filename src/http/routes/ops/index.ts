/** Liveness, readiness and Prometheus metrics: unauthenticated, for load balancers and scrapers. */
import type { Registry } from 'prom-client';
import type { TypedApp } from '../../typed-app.ts';
import { registerHealthz } from './healthz.ts';
import { registerMetrics } from './metrics.ts';
import { type DatabaseProbe, registerReadyz } from './readyz.ts';

export function registerOpsRoutes(app: TypedApp, database: DatabaseProbe, registry: Registry): void {
  registerHealthz(app);
  registerReadyz(app, database);
  registerMetrics(app, registry);
}
