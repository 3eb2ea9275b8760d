/** `PATCH /api/v1/webhooks/:id`: changes the URL or the event types, or enables/disables an endpoint. */
import { Type } from 'typebox';
import { updateEndpoint } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { EventTypeList, IdParams, tags, view, type WebhookRouteDeps } from './webhook-route-shapes.ts';

const UpdateBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    events: Type.Optional(EventTypeList),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export function registerUpdateEndpoint(app: TypedApp, deps: WebhookRouteDeps): void {
  app.patch(
    '/api/v1/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Change the URL, the event types, or enable/disable an endpoint',
        params: IdParams,
        body: UpdateBody,
      },
    },
    async (request) => {
      const endpoint = await updateEndpoint(deps, request.accountId, request.params.id, request.body);
      return success(view(endpoint));
    },
  );
}
