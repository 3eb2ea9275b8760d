/** `POST /api/v1/webhooks/:id/replay`: delivers again every event since a time. */
import { Type } from 'typebox';
import { replaySince } from '../../../domain/webhook-endpoints.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, tags, type WebhookRouteDeps } from './webhook-route-shapes.ts';

const ReplayBody = Type.Object(
  { since: Type.String({ format: 'date-time' }) },
  { additionalProperties: false },
);

export function registerReplay(app: TypedApp, deps: WebhookRouteDeps): void {
  app.post(
    '/api/v1/webhooks/:id/replay',
    {
      schema: { tags, summary: 'Deliver again every event since a time', params: IdParams, body: ReplayBody },
    },
    async (request) => {
      const since = Date.parse(request.body.since);
      const { queued, next } = await replaySince(deps, request.accountId, request.params.id, since);
      return success({ queued, next: next === null ? null : new Date(next).toISOString() });
    },
  );
}
