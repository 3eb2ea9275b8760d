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
import { pageOf, pageQuery } from '../../paging.ts';
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
    ...pageQuery(PER_PAGE_MAX, 100),
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
      const { page, perPage, offset } = pageOf(request.query, 100);
      const [recipients, total] = await Promise.all([
        deps.campaigns.recipients(campaign, filter, {
          afterSeq: -1,
          offset,
          limit: perPage,
        }),
        deps.campaigns.countRecipients(campaign, filter),
      ]);
      return success({ recipients: recipients.map(recipientRow), page, perPage, total });
    },
  );
}
