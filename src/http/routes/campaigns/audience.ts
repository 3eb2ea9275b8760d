/**
 * `POST /api/v1/campaigns/:id/audience` (multipart/form-data, one part `file`, a CSV file of up to
 * 100 MB): a DRAFT's CSV audience, read as it arrives; each row a recipient, every left-out row reported
 * with its line and why. Columns: `phone` or `user_id`, and any others the placeholders name.
 */

import { checkAudienceColumns } from '../../../domain/campaigns/audience.ts';
import { uploadAudience } from '../../../domain/campaigns/campaign-control.ts';
import type { CampaignDeps } from '../../../domain/campaigns/campaign-service.ts';
import { csvUploadRows } from '../../../domain/csv-upload.ts';
import { GatewayError } from '../../../domain/errors.ts';
import { success } from '../../envelope.ts';
import { clientBytes, filePart } from '../../multipart-file.ts';
import type { TypedApp } from '../../typed-app.ts';
import { IMPORT_MAX_BYTES } from '../contacts/import.ts';
import { campaignView, IdParams, tags } from './campaign-route-shapes.ts';

export function registerCampaignAudience(app: TypedApp, deps: CampaignDeps): void {
  app.post(
    '/api/v1/campaigns/:id/audience',
    {
      schema: {
        tags,
        summary: "Upload a DRAFT campaign's CSV audience (multipart, part `file`)",
        params: IdParams,
      },
    },
    async (request) => {
      if (Number(request.headers['content-length'] ?? 0) > IMPORT_MAX_BYTES + 64 * 1024) {
        throw new GatewayError('payload_too_large', '`file` may be at most 100 MB', { field: 'file' });
      }
      const part = await filePart(request, IMPORT_MAX_BYTES);
      const rows = csvUploadRows(clientBytes(part.file), checkAudienceColumns);
      const { report, campaign } = await uploadAudience(deps, request.accountId, request.params.id, rows);
      if (part.file.truncated) {
        // A cut file is no audience: what was read is dropped with the draft's count, and the client told.
        await deps.campaigns.clearRecipients(campaign.id);
        await deps.campaigns.updateDraft({ ...campaign, total: null });
        throw new GatewayError('payload_too_large', '`file` may be at most 100 MB; no audience was kept', {
          field: 'file',
        });
      }
      return success({ ...report, campaign: campaignView(campaign) });
    },
  );
}
