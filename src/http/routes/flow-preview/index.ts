/** The page behind a flow's preview link. */
import type { FlowsRepo } from '../../../store/flows-repo.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerShowFlowPreview } from './show-page.ts';

export function registerFlowPreviewRoutes(app: TypedApp, flows: FlowsRepo, secretKey: Buffer): void {
  registerShowFlowPreview(app, flows, secretKey);
}
