/** Liveness, readiness and Prometheus metrics: unauthenticated, for load balancers and scrapers. */
import type { Registry } from 'prom-client';
import type { Store } from '../../../store/connect.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerHealthz } from './healthz.ts';
import { registerMetrics } from './metrics.ts';
import { registerReadyz } from './readyz.ts';

export function registerOpsRoutes(app: TypedApp, store: Store, registry: Registry): void {
  registerHealthz(app);
  registerReadyz(app, store);
  registerMetrics(app, registry);
}
