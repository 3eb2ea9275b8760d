/** `DELETE /api/v1/msg/manage/flow/:id`: deletes a DRAFT flow. */
import { deleteFlow } from '../../../domain/flows/flow-service.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { BASE, type FlowRouteDeps, IdParams, tags } from './flow-route-shapes.ts';

export function registerDeleteFlow(app: TypedApp, deps: FlowRouteDeps): void {
  app.delete(
    `${BASE}/:id`,
    { schema: { tags, summary: 'Delete a DRAFT flow', params: IdParams } },
    async (request) => {
      const id = Number(request.params.id);
      await deleteFlow(deps, request.accountId, id);
      return success({ id, deleted: true });
    },
  );
}
