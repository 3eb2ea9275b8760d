/** `PUT /api/v1/msg/manage/flow/:id`: changes a DRAFT flow's name, categories or Flow JSON. */
import { updateFlow } from '../../../domain/flows/flow-service.ts';
import { success } from '../../envelope.ts';
import { readFlowParts } from '../../flow-form.ts';
import type { TypedApp } from '../../typed-app.ts';
import { BASE, type FlowRouteDeps, IdParams, multipartDoc, tags } from './flow-route-shapes.ts';

export function registerUpdateFlow(app: TypedApp, deps: FlowRouteDeps): void {
  app.put(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: 'Change the name, categories or Flow JSON of a DRAFT flow (every part optional)',
        description: multipartDoc,
        consumes: ['multipart/form-data'],
        params: IdParams,
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      return success(await updateFlow(deps, request.accountId, id, await readFlowParts(request)));
    },
  );
}
