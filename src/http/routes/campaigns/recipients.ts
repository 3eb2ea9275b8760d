/**
 * `GET /api/v1/campaigns/:id/recipients?status=&page=&per_page=` (docs/campaigns.md): a campaign's
 * recipients in the audience's order, a page at a time, or all of them as CSV (`format=csv`, streamed a
 * page at a time so a large campaign never sits in memory).
 */
import { Readable } from 'node:stream';
import { Type } from 'typebox';
import { type CampaignDeps, ownedCampaign } from '../../../domain/campaigns/campaign-service.ts';
import { recipientRow, recipientsCsv } from '../../../domain/campaigns/recipient-rows.ts';
import { recipientFilters } from '../../../domain/ports/campaigns.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IdParams, tags } from './campaign-route-shapes.ts';

const PER_PAGE_MAX = 500;

const Query = Type.Object(
  {
    status: Type.Optional(
      Type.Union(
        recipientFilters.map((f) => Type.Literal(f)),
        {
          description: 'only the recipients in this state',
          'x-rule': `must be one of ${recipientFilters.join(', ')}`,
        },
      ),
    ),
    page: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,6}$',
        'x-rule': 'must be a whole number from 1',
        description: 'from 1',
      }),
    ),
    per_page: Type.Optional(
      Type.String({
        pattern: '^(500|[1-4][0-9]{2}|[1-9][0-9]?)$',
        'x-rule': `must be a whole number from 1 to ${PER_PAGE_MAX}`,
        description: `1 to ${PER_PAGE_MAX}, default 100`,
      }),
    ),
    format: Type.Optional(
      Type.Literal('csv', { description: 'csv: every recipient as a CSV file', 'x-rule': 'must be csv' }),
    ),
  },
  { additionalProperties: false },
);

export function registerCampaignRecipients(app: TypedApp, deps: CampaignDeps): void {
  app.get(
    '/api/v1/campaigns/:id/recipients',
    {
      schema: {
        tags,
        summary: "A campaign's recipients and what became of each",
        params: IdParams,
        querystring: Query,
      },
    },
    async (request, reply) => {
      const campaign = await ownedCampaign(deps, request.accountId, request.params.id);
      const filter = request.query.status;
      if (request.query.format === 'csv') {
        reply.header('content-type', 'text/csv; charset=utf-8');
        reply.header('content-disposition', `attachment; filename="${campaign.id}-recipients.csv"`);
        return reply.send(Readable.from(recipientsCsv(deps, campaign, filter)));
      }
      const page = Number(request.query.page ?? 1);
      const perPage = Number(request.query.per_page ?? 100);
      const [recipients, total] = await Promise.all([
        deps.campaigns.recipients(campaign, filter, {
          afterSeq: -1,
          offset: (page - 1) * perPage,
          limit: perPage,
        }),
        deps.campaigns.countRecipients(campaign, filter),
      ]);
      return success({ recipients: recipients.map(recipientRow), page, perPage, total });
    },
  );
}
