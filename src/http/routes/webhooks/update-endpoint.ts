/** `PATCH /api/v1/webhooks/:id`: changes the URL or the event types, or enables/disables an endpoint. */
import { Type } from 'typebox';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import {
  checkUrl,
  EventTypeList,
  IdParams,
  ownedEndpoint,
  tags,
  view,
  type WebhookRouteDeps,
} from './webhook-route-shapes.ts';

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
      const { id } = request.params;
      const body = request.body;
      await ownedEndpoint(deps.repo, request.accountId, id);
      if (body.url !== undefined) checkUrl(body.url, deps.allowPrivateUrls);
      const now = Date.now();
      await deps.repo.updateEndpointOfAccount(
        request.accountId,
        id,
        {
          ...(body.url !== undefined ? { url: body.url } : {}),
          ...(body.events !== undefined ? { events: JSON.stringify(body.events) } : {}),
          // Re-enabling starts a fresh failure count, so the endpoint is not disabled again at once.
          ...(body.enabled === true ? { disabled_at: null, failing_since: null } : {}),
          ...(body.enabled === false ? { disabled_at: now } : {}),
        },
        now,
      );
      return success(view(await ownedEndpoint(deps.repo, request.accountId, id)));
    },
  );
}
