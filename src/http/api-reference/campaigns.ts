/** The reference of the campaign operations (docs/campaigns.md). */
import type { ReferenceTable } from './operation-reference.ts';
import { successBody } from './responses.ts';

const ID = 'cmp_01m8agyr1d52vep527rjzzxmrn';
const CAMPAIGN = {
  id: ID,
  name: 'Winter sale',
  from: '+14155550123',
  template: { name: 'winter_sale', language: 'en_US' },
  parameters: [
    { field: 'name', fallback: 'there' },
    { value: '20%' },
    { attribute: 'city', fallback: 'our' },
  ],
  audience: { tags: ['vip'] },
  status: 'DRAFT',
  statusReason: null,
  startAt: null,
  timeZone: null,
  total: null,
  createdAt: '2026-11-25T23:34:18.925Z',
  updatedAt: '2026-11-25T23:34:18.925Z',
  startedAt: null,
  completedAt: null,
};
const COUNTS = {
  total: 3,
  queued: 0,
  sent: 2,
  delivered: 2,
  read: 1,
  failed: 0,
  replied: 1,
  skipped: { total: 1, opted_out: 1, invalid_number: 0, duplicate: 0, missing_value: 0 },
};
const RUNNING = {
  ...CAMPAIGN,
  status: 'RUNNING',
  total: 3,
  updatedAt: '2026-11-25T23:34:30.460Z',
  startedAt: '2026-11-25T23:34:30.460Z',
};
const NOT_FOUND = `no campaign ${ID} in this account`;
const BAD_ID = 'path parameter `id` must be at most 64 characters';
const notState = (action: string, allowed: string) =>
  `campaign ${ID} is COMPLETED: only a campaign that is ${allowed} can be ${action}`;

export const CAMPAIGN_REFERENCE: ReferenceTable = {
  'POST /api/v1/campaigns': {
    operationId: 'createCampaign',
    description:
      "Makes a campaign, a DRAFT: the sending number, the number's template by name and language, where each body placeholder's value comes from (`field` name or phone, a contact `attribute`, a CSV `column`, or a fixed `value`, each with an optional `fallback`), the audience (`tags`, `contactIds`, or `csv`: a file uploaded next), and optionally `startAt` read in `timeZone`.",
    success: { status: 201, description: 'The campaign.', example: successBody(CAMPAIGN) },
    errors: {
      400: '`parameters[0]` must name exactly one source: `field`, `attribute`, `column` or `value`',
      403: '+14155550199 is neither the sandbox number (+14155550100) nor a number registered to your account',
    },
    requestExample: {
      name: 'Winter sale',
      from: '+14155550123',
      template: { name: 'winter_sale', language: 'en_US' },
      parameters: [
        { field: 'name', fallback: 'there' },
        { value: '20%' },
        { attribute: 'city', fallback: 'our' },
      ],
      audience: { tags: ['vip'] },
    },
  },
  'GET /api/v1/campaigns': {
    operationId: 'listCampaigns',
    description: "This account's campaigns, newest first, a page at a time.",
    success: {
      status: 200,
      description: 'A page of campaigns and how many there are.',
      example: successBody({ campaigns: [CAMPAIGN], page: 1, perPage: 20, total: 1 }),
    },
    errors: { 400: 'query parameter `per_page` must be a whole number from 1 to 100' },
  },
  'GET /api/v1/campaigns/{id}': {
    operationId: 'getCampaign',
    description:
      'One campaign with its live counts: `sent`, `delivered` and `read` are cumulative; `queued` includes messages whose outcome the network has not reported yet; `skipped` says why.',
    success: {
      status: 200,
      description: 'The campaign and its counts.',
      example: successBody({ ...RUNNING, counts: COUNTS }),
    },
    errors: { 400: BAD_ID, 404: NOT_FOUND },
  },
  'PATCH /api/v1/campaigns/{id}': {
    operationId: 'updateCampaign',
    description: "Changes a DRAFT's settings; what the body leaves out stays.",
    success: {
      status: 200,
      description: 'The campaign as it now is.',
      example: successBody({ ...CAMPAIGN, name: 'Winter sale, last days' }),
    },
    errors: {
      400: '`name` must be 1 to 200 characters',
      403: '+14155550199 is neither the sandbox number (+14155550100) nor a number registered to your account',
      404: NOT_FOUND,
      409: `campaign ${ID} is RUNNING: only a DRAFT can be changed`,
    },
    requestExample: { name: 'Winter sale, last days' },
  },
  'DELETE /api/v1/campaigns/{id}': {
    operationId: 'deleteCampaign',
    description:
      'Deletes a campaign that is a DRAFT, COMPLETED or CANCELLED, with its recipients; its messages stay.',
    success: { status: 200, description: 'Deleted.', example: successBody({ id: ID, deleted: true }) },
    errors: { 400: BAD_ID, 404: NOT_FOUND, 409: `campaign ${ID} is RUNNING: cancel it before deleting it` },
  },
  'POST /api/v1/campaigns/{id}/start': {
    operationId: 'startCampaign',
    description:
      'Reads the audience into recipients, checks the template is APPROVED and fits the placeholders, and starts sending, or schedules the campaign for its `startAt`.',
    success: {
      status: 200,
      description: 'The campaign, RUNNING or SCHEDULED.',
      example: successBody(RUNNING),
    },
    errors: {
      400: BAD_ID,
      404: NOT_FOUND,
      409: notState('started', 'DRAFT'),
      422: 'Template "winter_sale" (en_US) is PENDING; only APPROVED templates can be sent (and ones the network has FLAGGED or LOCKED)',
    },
  },
  'POST /api/v1/campaigns/{id}/pause': {
    operationId: 'pauseCampaign',
    description: 'Pauses a running or scheduled campaign: no new message leaves; those under way finish.',
    success: {
      status: 200,
      description: 'The campaign, PAUSED.',
      example: successBody({ ...RUNNING, status: 'PAUSED' }),
    },
    errors: { 400: BAD_ID, 404: NOT_FOUND, 409: notState('paused', 'RUNNING or SCHEDULED') },
  },
  'POST /api/v1/campaigns/{id}/resume': {
    operationId: 'resumeCampaign',
    description: 'Resumes a paused campaign where it stopped.',
    success: { status: 200, description: 'The campaign, RUNNING.', example: successBody(RUNNING) },
    errors: { 400: BAD_ID, 404: NOT_FOUND, 409: notState('resumed', 'PAUSED') },
  },
  'POST /api/v1/campaigns/{id}/cancel': {
    operationId: 'cancelCampaign',
    description: 'Cancels a campaign for good; recipients not yet sent to are never sent to.',
    success: {
      status: 200,
      description: 'The campaign, CANCELLED.',
      example: successBody({ ...RUNNING, status: 'CANCELLED', completedAt: '2026-11-25T23:35:02.101Z' }),
    },
    errors: { 400: BAD_ID, 404: NOT_FOUND, 409: notState('cancelled', 'not COMPLETED') },
  },
  'POST /api/v1/campaigns/{id}/audience': {
    multipart: {
      required: ['file'],
      parts: {
        file: {
          description:
            'A CSV file of up to 100 MB whose first line names the columns: `phone` or `user_id`, `name`, and any column a placeholder names.',
          file: true,
        },
      },
    },
    operationId: 'uploadCampaignAudience',
    description:
      'Gives a DRAFT with a `csv` audience its recipients, read as the file arrives; a later upload replaces them. Rows left out (invalid number, duplicate, missing value) are recipients skipped with the reason, and reported with their line.',
    success: {
      status: 200,
      description: 'How many rows there were, queued and skipped, the reported rows, and the campaign.',
      example: successBody({
        rows: 3,
        queued: 2,
        skipped: 1,
        rejected: [{ line: 4, reason: 'duplicate: this person is already in the audience' }],
        campaign: { ...CAMPAIGN, audience: { csv: true }, total: 3 },
      }),
    },
    errors: {
      400: '`file`: the first line must name the columns, with `phone` or `user_id` among them',
      404: NOT_FOUND,
      409: `campaign ${ID} has a tags audience: set "audience": {"csv": true} to upload a file`,
      413: '`file` may be at most 100 MB',
    },
  },
  'GET /api/v1/campaigns/{id}/recipients': {
    operationId: 'listCampaignRecipients',
    description:
      "A campaign's recipients in the audience's order and what became of each (queued, sent, delivered, read, failed, skipped), a page at a time; `status` keeps one kind (or `replied`); `format=csv` answers all of them as a CSV file. Each recipient's message is an ordinary message: its `messageId` finds it in the message log and its events.",
    success: {
      status: 200,
      description: 'A page of recipients and how many the filter keeps.',
      example: successBody({
        recipients: [
          {
            seq: 0,
            to: '+447911123456',
            contactId: 'ctc_01m8agyphq97tfacj6hfjwjdv0',
            line: null,
            status: 'read',
            reason: null,
            replied: true,
            messageId: `${ID}-0`,
            sentAt: '2026-11-25T23:34:30.481Z',
          },
        ],
        page: 1,
        perPage: 100,
        total: 1,
      }),
    },
    errors: {
      400: 'query parameter `status` must be one of queued, sent, delivered, read, failed, skipped, replied',
      404: NOT_FOUND,
    },
  },
};
