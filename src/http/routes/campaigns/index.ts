/** Campaigns of an account (docs/campaigns.md): manage, control, give a CSV audience, read recipients. */
import type { CampaignDeps } from '../../../domain/campaigns/campaign-service.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerCampaignAudience } from './audience.ts';
import { registerCampaignControl } from './control.ts';
import { registerManageCampaigns } from './manage.ts';
import { registerCampaignRecipients } from './recipients.ts';

export function registerCampaignRoutes(app: TypedApp, deps: CampaignDeps): void {
  registerManageCampaigns(app, deps);
  registerCampaignControl(app, deps);
  registerCampaignAudience(app, deps);
  registerCampaignRecipients(app, deps);
}
