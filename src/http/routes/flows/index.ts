/** The flow routes (operations 9–12 of docs/contract.md): create, update, preview, publish, deprecate, delete, list. */
import type { TypedApp } from '../../typed-app.ts';
import { registerCreateFlow } from './create.ts';
import { registerDeleteFlow } from './delete.ts';
import { registerDeprecateFlow } from './deprecate.ts';
import type { FlowRouteDeps } from './flow-route-shapes.ts';
import { registerListFlows } from './list.ts';
import { registerFlowPreviewUrl } from './preview-url.ts';
import { registerPublishFlow } from './publish.ts';
import { registerUpdateFlow } from './update.ts';

export function registerFlowRoutes(app: TypedApp, deps: FlowRouteDeps): void {
  registerCreateFlow(app, deps);
  registerUpdateFlow(app, deps);
  registerFlowPreviewUrl(app, deps);
  registerPublishFlow(app, deps);
  registerDeprecateFlow(app, deps);
  registerDeleteFlow(app, deps);
  registerListFlows(app, deps);
}
