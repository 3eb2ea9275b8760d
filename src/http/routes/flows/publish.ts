/** `POST /api/v1/msg/manage/flow/:id/publish`: publishes a DRAFT flow. */
import { publishFlow } from '../../../domain/flows/flow-service.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { BASE, type FlowRouteDeps, IdParams, tags } from './flow-route-shapes.ts';

export function registerPublishFlow(app: TypedApp, deps: FlowRouteDeps): void {
  app.post(
    `${BASE}/:id/publish`,
    { schema: { tags, summary: 'Publish a DRAFT flow', params: IdParams } },
    async (request) => success(await publishFlow(deps, request.accountId, Number(request.params.id))),
  );
}
