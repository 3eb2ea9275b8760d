/** `POST /api/v1/msg/manage/flow`: a new DRAFT flow from a multipart form holding its Flow JSON. */
import { createFlow } from '../../../domain/flows/flow-service.ts';
import { success } from '../../envelope.ts';
import { readFlowParts } from '../../flow-form.ts';
import type { TypedApp } from '../../typed-app.ts';
import { BASE, type FlowRouteDeps, multipartDoc, tags } from './flow-route-shapes.ts';

export function registerCreateFlow(app: TypedApp, deps: FlowRouteDeps): void {
  app.post(
    BASE,
    {
      schema: {
        tags,
        summary: 'Create a flow (DRAFT) from a Flow JSON file',
        description: multipartDoc,
        consumes: ['multipart/form-data'],
      },
    },
    async (request) => success(await createFlow(deps, request.accountId, await readFlowParts(request))),
  );
}
