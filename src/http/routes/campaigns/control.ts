/** `POST /api/v1/campaigns/:id/start|pause|resume|cancel` (docs/campaigns.md): a campaign's life. */
import {
  cancelCampaign,
  pauseCampaign,
  resumeCampaign,
  startCampaign,
} from '../../../domain/campaigns/campaign-control.ts';
import type { CampaignDeps } from '../../../domain/campaigns/campaign-service.ts';
import { success } from '../../envelope.ts';
import type { TypedApp } from '../../typed-app.ts';
import { campaignView, IdParams, tags } from './campaign-route-shapes.ts';

const ACTIONS = {
  start: { act: startCampaign, summary: 'Start a DRAFT campaign now, or schedule it for its `startAt`' },
  pause: { act: pauseCampaign, summary: 'Pause a running or scheduled campaign' },
  resume: { act: resumeCampaign, summary: 'Resume a paused campaign where it stopped' },
  cancel: { act: cancelCampaign, summary: 'Cancel a campaign for good' },
} as const;

export function registerCampaignControl(app: TypedApp, deps: CampaignDeps): void {
  for (const [action, { act, summary }] of Object.entries(ACTIONS)) {
    app.post(
      `/api/v1/campaigns/:id/${action}`,
      { schema: { tags, summary, params: IdParams } },
      async (request) => success(campaignView(await act(deps, request.accountId, request.params.id))),
    );
  }
}
