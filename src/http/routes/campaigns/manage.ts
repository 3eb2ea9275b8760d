/**
 * `POST /api/v1/campaigns`, `GET /api/v1/campaigns`, and `GET|PATCH|DELETE /api/v1/campaigns/:id`
 * (docs/campaigns.md): a campaign is made as a DRAFT, read with its live counts, changed while a draft.
 */
import { Type } from 'typebox';
import {
  type CampaignDeps,
  campaignWithCounts,
  createCampaign,
  deleteCampaign,
  updateCampaign,
} from '../../../domain/campaigns/campaign-service.ts';
import { success } from '../../envelope.ts';
import { pageOf, pageQuery } from '../../paging.ts';
import type { TypedApp } from '../../typed-app.ts';
import { CampaignBody, campaignView, IdParams, tags } from './campaign-route-shapes.ts';

const PER_PAGE_MAX = 100;
const ListQuery = Type.Object(
  {
    ...pageQuery(PER_PAGE_MAX, 20),
  },
  { additionalProperties: false },
);

export function registerManageCampaigns(app: TypedApp, deps: CampaignDeps): void {
  app.post(
    '/api/v1/campaigns',
    { schema: { tags, summary: 'Make a campaign (a DRAFT)', body: CampaignBody } },
    async (request, reply) => {
      const campaign = await createCampaign(deps, request.accountId, request.body);
      reply.code(201);
      return success(campaignView(campaign));
    },
  );
  app.get(
    '/api/v1/campaigns',
    { schema: { tags, summary: "The account's campaigns, newest first", querystring: ListQuery } },
    async (request) => {
      const { page, perPage, offset } = pageOf(request.query, 20);
      const { campaigns, total } = await deps.campaigns.list(request.accountId, {
        offset,
        limit: perPage,
      });
      return success({ campaigns: campaigns.map((c) => campaignView(c)), page, perPage, total });
    },
  );
  app.get(
    '/api/v1/campaigns/:id',
    { schema: { tags, summary: 'Read a campaign with its live counts', params: IdParams } },
    async (request) => {
      const { campaign, counts } = await campaignWithCounts(deps, request.accountId, request.params.id);
      return success(campaignView(campaign, counts));
    },
  );
  app.patch(
    '/api/v1/campaigns/:id',
    { schema: { tags, summary: 'Change a DRAFT campaign', params: IdParams, body: CampaignBody } },
    async (request) =>
      success(campaignView(await updateCampaign(deps, request.accountId, request.params.id, request.body))),
  );
  app.delete(
    '/api/v1/campaigns/:id',
    { schema: { tags, summary: 'Delete a campaign that is not under way', params: IdParams } },
    async (request) => {
      await deleteCampaign(deps, request.accountId, request.params.id);
      return success({ id: request.params.id, deleted: true });
    },
  );
}
