/** The reference of templates, uploaded media and flows (docs/templates.md, docs/sending.md, docs/flows.md). */
import { FOREIGN_NUMBER, type ReferenceTable } from './operation-reference.ts';
import { successBody, templateSuccessBody } from './responses.ts';

const TEMPLATE = {
  name: 'order_update',
  language: 'en_US',
  category: 'UTILITY',
  status: 'APPROVED',
  id: '8929793974725744',
  createdAt: '2026-11-25T18:06:40.351+00:00',
  rejected_reason: 'NONE',
  quality_score: { score: 'UNKNOWN', date: '1795636561' },
  components: [
    {
      type: 'BODY',
      text: 'Hi {{1}}, your order ships {{2}}. Thank you.',
      example: { body_text: [['Jane', 'today']] },
    },
  ],
};

const TEMPLATE_BODY = {
  name: 'order_update',
  language: 'en_US',
  category: 'UTILITY',
  component: { body: { text: 'Hi {{1}}, your order ships {{2}}. Thank you.', examples: ['Jane', 'today'] } },
};

const DONE = templateSuccessBody({ success: true, error: null });

/**
 * The network-bound errors of a management call, in the words of src/domain/management-network-error.ts:
 * `action` names what was asked, `checkFirst` what to look at before retrying an unconfirmed one.
 */
function managed(action: string, checkFirst: string) {
  return {
    502: 'The network refused the credentials of this number (#190) Invalid OAuth access token.',
    503: 'The network is unavailable (#131016) Service unavailable; nothing changed, retry later',
    504: `The network did not confirm the ${action} (network timeout: no answer within 10000 ms); ${checkFirst} before retrying`,
  } as const;
}
const TEMPLATES = (action: string) => managed(action, 'list the templates');
const FLOWS = (action: string) => managed(action, 'check the flow');
const MEDIA = (action: string) => managed(action, 'upload it again if in doubt');

const FLOW = {
  id: 1,
  waFlowId: '1727589236950707',
  name: 'Sign up',
  status: 'DRAFT',
  categories: ['SIGN_UP'],
  createdAt: '2026-11-25T18:06:41.884Z',
  updatedAt: '2026-11-25T18:06:41.884Z',
};

const BAD_FLOW_ID = 'Request failed. path parameter `id` must be a flow id (a positive whole number)';
const NO_FLOW = 'Request failed. no flow 7 in this account';

export const MANAGE_REFERENCE: ReferenceTable = {
  'GET /api/v1/template/{phone}': {
    operationId: 'listTemplates',
    description:
      'The templates of a business number of this account (the sandbox number lists only yours), with their review status; filter by `name`, `language` and `status`.',
    success: {
      status: 200,
      description: 'The templates, in the template envelope.',
      example: templateSuccessBody({ data: [TEMPLATE] }),
    },
    errors: {
      400: '`status` must be one of APPROVED, PENDING, REJECTED, PAUSED, DISABLED, IN_APPEAL, FLAGGED, REINSTATED, PENDING_DELETION, DELETED, LIMIT_EXCEEDED, ARCHIVED, LOCKED',
      403: FOREIGN_NUMBER.replace('`from`', '`phone`'),
    },
  },
  'POST /api/v1/template/{phone}': {
    operationId: 'createTemplate',
    description:
      "Submits a template to the network for review: it is PENDING, then APPROVED or REJECTED (a `template.status` event says which). Variables are `{{1}}`..`{{n}}` with one example each. An AUTHENTICATION template has the network's texts and one OTP button (COPY_CODE or ONE_TAP); a MARKETING template with `cards` is a media-card carousel (docs/templates.md §8, §9).",
    success: {
      status: 200,
      description: 'Submitted: the template as the network holds it, PENDING.',
      example: templateSuccessBody({ ...TEMPLATE, status: 'PENDING' }),
    },
    errors: {
      400: '`component.body.text` uses {{3}} before {{2}}; variables must be numbered in order from {{1}}',
      403: FOREIGN_NUMBER.replace('`from`', '`phone`'),
      409: 'A template named "order_update" already exists in language en_US on this number; choose another name or language, or update that template',
      ...TEMPLATES('template'),
    },
    requestExample: TEMPLATE_BODY,
  },
  'DELETE /api/v1/template/{phone}': {
    operationId: 'deleteTemplateName',
    description: 'Deletes every language of a template name (`?name=`), on the network too.',
    success: { status: 200, description: 'Deleted.', example: DONE },
    errors: {
      400: 'query parameter `name` is required',
      403: FOREIGN_NUMBER.replace('`from`', '`phone`'),
      404: 'No template named "order_update" on +14155550100 in this account',
      ...TEMPLATES('template deletion'),
    },
  },
  'PUT /api/v1/template/{phone}/{templateId}': {
    operationId: 'updateTemplate',
    description:
      'Changes a template and submits it for review again. The network allows it for APPROVED, REJECTED and PAUSED templates; an APPROVED one once a day and ten times in 30 days, and its category stays.',
    success: { status: 200, description: 'Submitted again.', example: DONE },
    errors: {
      400: '`component.body.examples` must hold one example per body variable: 2 expected, 1 given',
      403: FOREIGN_NUMBER.replace('`from`', '`phone`'),
      404: 'No template "8929793974725744" on +14155550100 in this account',
      409: "The network refused the edit (#100) Template can't be edited",
      429: 'An approved template may be edited once in 24 hours; "order_update" can be edited again after 2026-11-26T18:06:40.351Z',
      ...TEMPLATES('template edit'),
    },
    requestExample: TEMPLATE_BODY,
  },
  'DELETE /api/v1/template/{phone}/{templateId}': {
    operationId: 'deleteTemplate',
    description: 'Deletes one language of a template, on the network too.',
    success: { status: 200, description: 'Deleted.', example: DONE },
    errors: {
      400: 'path parameter `templateId` must be at most 64 characters',
      403: FOREIGN_NUMBER.replace('`from`', '`phone`'),
      404: 'No template "8929793974725744" on +14155550100 in this account',
      ...TEMPLATES('template deletion'),
    },
  },
  'POST /api/v1/template/upload/file': {
    multipart: {
      required: ['file'],
      parts: { file: { description: 'An image (JPEG, PNG), a video (MP4) or a PDF document.', file: true } },
    },
    operationId: 'uploadTemplateMedia',
    description:
      "Uploads an image, video or PDF for a template's media header (multipart/form-data, one part named `file`); the answer is the handle to put in the header's `example`.",
    success: {
      status: 200,
      description: 'The header handle.',
      example: successBody('4::aW1hZ2UvcG5nOjZEQldIZnRmUmoyTVBiSHlKeVRTQWp1Sg'),
    },
    errors: {
      400: 'send the file as multipart/form-data in a part named `file`',
      413: '`file`: a image/png header may be at most 5 MB (5242880 bytes); this file is larger',
      ...MEDIA('media upload'),
    },
  },
  'POST /api/v1/media/{phone}': {
    multipart: {
      required: ['file'],
      parts: { file: { description: 'The file to send: recognised by its content.', file: true } },
    },
    operationId: 'uploadMedia',
    description:
      "Uploads a file to send by id from this number (multipart/form-data, one part named `file`). It is recognised by its content, never its name, and must be a kind the network carries, within that kind's size; send it with POST /api/v1/msg/media and its `mediaId`.",
    success: {
      status: 200,
      description: 'Uploaded: its `mediaId`.',
      example: successBody({
        mediaId: 'upl_01m89y6szambzfdrp1a8887tkt',
        phone: '+14155550100',
        mediaType: 'DOCUMENT',
        mimeType: 'application/pdf',
        size: 48,
      }),
    },
    errors: {
      400: '`file` must be media the network carries, recognised by its content: a JPEG or PNG image, a WebP sticker, an MP4 or 3GPP video, AAC, AMR, MP3, M4A or Ogg audio, or a PDF, Word, Excel, PowerPoint or plain-text document (Office and text files also need their own content type on the part)',
      403: FOREIGN_NUMBER.replace('`from`', '`phone`'),
      413: '`file`: image/png may be at most 5242880 bytes; this file is larger',
      ...MEDIA('media upload'),
    },
  },
  'DELETE /api/v1/media/{phone}/{mediaId}': {
    operationId: 'deleteMedia',
    description: 'Forgets an upload of this number, on the network first.',
    success: {
      status: 200,
      description: 'Deleted.',
      example: successBody({ mediaId: 'upl_01m89y6szambzfdrp1a8887tkt', deleted: true }),
    },
    errors: {
      400: '`phone` in the path must be a phone number with country code, e.g. +14155550100',
      404: 'no uploaded media with mediaId "upl_01m89y6szambzfdrp1a8887tkt" in this account',
      ...MEDIA('media deletion'),
    },
  },
  'POST /api/v1/msg/manage/flow': {
    multipart: {
      required: ['phoneNumber', 'name', 'categories', 'file'],
      parts: {
        phoneNumber: {
          description:
            'The business number the flow belongs to (the sandbox number or one of yours); not changeable.',
        },
        name: { description: "The flow's name, 1 to 200 characters." },
        categories: {
          description:
            'Comma-separated: SIGN_UP, SIGN_IN, APPOINTMENT_BOOKING, LEAD_GENERATION, CONTACT_US, CUSTOMER_SUPPORT, SURVEY, OTHER.',
        },
        file: { description: 'The Flow JSON (a .json file, at most 10 MB).', file: true },
      },
    },
    operationId: 'createFlow',
    description:
      'Creates a flow (DRAFT) on a number of this account from a Flow JSON file (multipart/form-data: `phoneNumber`, `name`, `categories`, `file`). Its validation errors, if any, are kept: they block publishing, not saving.',
    success: { status: 200, description: 'The new flow.', example: successBody(FLOW) },
    errors: {
      400: 'Request failed. `categories` holds "SIGNUP", which is not a flow category; allowed: SIGN_UP, SIGN_IN, APPOINTMENT_BOOKING, LEAD_GENERATION, CONTACT_US, CUSTOMER_SUPPORT, SURVEY, OTHER (comma-separated for several)',
      403: FOREIGN_NUMBER.replace('`from`', '`phoneNumber`'),
      413: 'the request body is larger than the 10485760 bytes allowed',
      ...FLOWS('flow creation'),
    },
  },
  'GET /api/v1/msg/manage/flow': {
    operationId: 'listFlows',
    description:
      'The flows of this account, newest first, a page at a time (`page` from 1, `per_page` up to 100). The answer is the page itself, without the envelope.',
    success: {
      status: 200,
      description: 'A page of flows (no envelope).',
      example: { data: [FLOW], totalPages: 1, totalItemsInPage: 1, totalElements: 1 },
    },
    errors: { 400: 'Request failed. query parameter `per_page` must be a whole number from 1 to 100' },
  },
  'PUT /api/v1/msg/manage/flow/{id}': {
    multipart: {
      required: [],
      parts: {
        phoneNumber: {
          description:
            'The business number the flow belongs to (the sandbox number or one of yours); not changeable.',
        },
        name: { description: "The flow's name, 1 to 200 characters." },
        categories: {
          description:
            'Comma-separated: SIGN_UP, SIGN_IN, APPOINTMENT_BOOKING, LEAD_GENERATION, CONTACT_US, CUSTOMER_SUPPORT, SURVEY, OTHER.',
        },
        file: { description: 'The Flow JSON (a .json file, at most 10 MB).', file: true },
      },
    },
    operationId: 'updateFlow',
    description:
      'Changes the name, the categories or the Flow JSON of a DRAFT flow (multipart/form-data; every part optional, at least one).',
    success: {
      status: 200,
      description: 'The flow as it now is.',
      example: successBody({ ...FLOW, name: 'Sign up 2' }),
    },
    errors: {
      400: 'Request failed. send at least one of `name`, `categories` or `file`',
      404: NO_FLOW,
      409: 'Request failed. flow 1 is PUBLISHED; only a DRAFT flow can change (create a new flow instead)',
      ...FLOWS('flow update'),
    },
  },
  'DELETE /api/v1/msg/manage/flow/{id}': {
    operationId: 'deleteFlow',
    description: 'Deletes a DRAFT flow, on the network too; a published flow is deprecated instead.',
    success: { status: 200, description: 'Deleted.', example: successBody({ id: 1, deleted: true }) },
    errors: {
      400: BAD_FLOW_ID,
      404: NO_FLOW,
      409: 'Request failed. flow 1 is PUBLISHED; only a DRAFT flow can be deleted (deprecate a published flow instead)',
      ...FLOWS('deletion'),
    },
  },
  'GET /api/v1/msg/manage/flow/{id}/preview/url': {
    operationId: 'previewFlow',
    description: "A signed link to a page that shows the flow's screens as a phone would, valid 30 days.",
    success: {
      status: 200,
      description: 'The preview link.',
      example: successBody({
        preview: {
          preview_url:
            'https://gateway.example.org/flows/preview/1.1798228561890.WLvfzpKq3NmOG7mHd7pSlF-l1egY-IbJ5c03lhMjBCc',
          expires_at: '2026-12-25T18:06:41+0000',
        },
        id: '1',
      }),
    },
    errors: { 400: BAD_FLOW_ID, 404: NO_FLOW },
  },
  'POST /api/v1/msg/manage/flow/{id}/publish': {
    operationId: 'publishFlow',
    description:
      'Publishes a DRAFT flow without validation errors: it can then be sent to anyone. Publishing cannot be undone.',
    success: {
      status: 200,
      description: 'The flow, PUBLISHED.',
      example: successBody({ ...FLOW, status: 'PUBLISHED' }),
    },
    errors: {
      400: BAD_FLOW_ID,
      404: NO_FLOW,
      409: 'Request failed. flow 1 is already PUBLISHED',
      ...FLOWS('publication'),
    },
  },
  'POST /api/v1/msg/manage/flow/{id}/deprecate': {
    operationId: 'deprecateFlow',
    description:
      'Deprecates a PUBLISHED flow: it can no longer be sent; messages already sent still open it.',
    success: {
      status: 200,
      description: 'The flow, DEPRECATED.',
      example: successBody({ ...FLOW, status: 'DEPRECATED' }),
    },
    errors: {
      400: BAD_FLOW_ID,
      404: NO_FLOW,
      409: 'Request failed. flow 1 is DRAFT; only a PUBLISHED flow can be deprecated (a DRAFT flow can be deleted instead)',
      ...FLOWS('deprecation'),
    },
  },
};
