/** `POST /api/v1/msg/manage/flow/:id/deprecate`: deprecates a PUBLISHED flow. */
import { deprecateFlow } from '../../../domain/flows/flow-service.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { BASE, type FlowRouteDeps, IdParams, tags } from './flow-route-shapes.ts';

export function registerDeprecateFlow(app: TypedApp, deps: FlowRouteDeps): void {
  app.post(
    `${BASE}/:id/deprecate`,
    { schema: { tags, summary: 'Deprecate a PUBLISHED flow (it can no longer be sent)', params: IdParams } },
    async (request) => success(await deprecateFlow(deps, request.accountId, Number(request.params.id))),
  );
}
