/** `GET /api/v1/msg/manage/flow/:id/preview/url`: a signed link to preview the flow. */
import { flowPreview } from '../../../domain/flows/flow-service.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { BASE, type FlowRouteDeps, IdParams, tags } from './flow-route-shapes.ts';

export function registerFlowPreviewUrl(app: TypedApp, deps: FlowRouteDeps): void {
  app.get(
    `${BASE}/:id/preview/url`,
    { schema: { tags, summary: 'A link to preview the flow, valid 30 days', params: IdParams } },
    async (request) => success(await flowPreview(deps, request.accountId, Number(request.params.id))),
  );
}
