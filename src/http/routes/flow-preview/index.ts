/** The page behind a flow's preview link. */
import type { FlowsStore } from '../../../domain/ports/flows.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerShowFlowPreview } from './show-page.ts';

export function registerFlowPreviewRoutes(app: TypedApp, flows: FlowsStore, secretKey: Buffer): void {
  registerShowFlowPreview(app, flows, secretKey);
}
