/**
 * The reference of the virtual phones (simulator only, docs/simulator.md): what a WhatsApp user does on the
 * simulated network. They take no API key; a private simulator asks for its own token instead.
 */
import type { ReferenceTable } from './operation-reference.ts';

const MESSAGE = {
  id: 'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAERgUM0NCMDNEQUE4QzYyMzREQzVGOEEA',
  from: '14155550100',
  type: 'text',
  rendered: 'Your order #42 has shipped.',
  content: { type: 'text', text: { body: 'Your order #42 has shipped.', preview_url: false } },
  status: 'read',
  timestamp: '2026-11-25T18:06:41.292Z',
};
/** A message of a chat: its direction and business say who wrote, so it has no `from`. */
const { from: _from, ...CHAT_MESSAGE } = MESSAGE;
const BAD_PHONE = '`phone` in the path is not a valid phone number with country code: "0712"';

export const SIMULATOR_REFERENCE: ReferenceTable = {
  'GET /simulator/users/{phone}/messages': {
    operationId: 'simulatorPhoneMessages',
    refusals: 'simulator',
    description:
      "What a virtual user's phone received from business numbers (`?from=` one of them), oldest first, with each message's status on the phone.",
    success: { status: 200, description: 'The received messages.', example: { messages: [MESSAGE] } },
    errors: { 400: BAD_PHONE },
    query: [{ name: 'from', required: false, description: 'Only those from this business number.' }],
  },
  'POST /simulator/users/{phone}/messages': {
    operationId: 'simulatorUserWrites',
    refusals: 'simulator',
    description:
      "The virtual user writes to a business number: a text (`join <code>` joins a sandbox), a tap on a button or list row (`reply`), a location, a media file, or a completed flow. The business receives it as the network's signed webhook.",
    success: {
      status: 202,
      description: 'Taken by the network; the business is told by webhook.',
      example: { id: 'wamid.HBgMMjU0NzEyMzQ1Njc4FQIAEhggQ0Y1QjM2RUE4RDg5' },
    },
    errors: { 400: '`to` must be the business number, with country code' },
    requestExample: { to: '+14155550100', text: 'join maple-tiger-river-104233' },
  },
  'POST /simulator/users/{phone}/calls': {
    operationId: 'simulatorUserCalls',
    refusals: 'simulator',
    description:
      "The virtual user rings a business number: the business gets the network's `calls` webhook with an SDP offer, and may answer it through the Graph calling API (docs/cloud-api.md §11). The gateway itself does not handle calls.",
    success: { status: 202, description: 'Ringing.', example: { id: 'wacid.HBgMMjU0NzEyMzQ1Njc4FQIAEhgg' } },
    errors: { 400: '`to` must be the business number, with country code' },
    requestExample: { to: '+14155550100' },
  },
  'GET /simulator/users/{phone}/marketing': {
    operationId: 'simulatorMarketingStop',
    refusals: 'simulator',
    description:
      'Whether the virtual user stopped the marketing of a business number (`?business=`), as WhatsApp lets a user do in the app.',
    success: {
      status: 200,
      description: 'The setting.',
      example: { business: '14155550100', stopped: false },
    },
    errors: { 400: '`business` must be the business number, with country code' },
    query: [{ name: 'business', required: true, description: 'The business number.' }],
  },
  'PUT /simulator/users/{phone}/marketing': {
    operationId: 'simulatorSetMarketingStop',
    refusals: 'simulator',
    description:
      "Stops (or resumes) a business number's marketing for the virtual user. A change is posted to the business as a `user_preferences` webhook (`stop` or `resume`), and the network takes that business's MARKETING templates to a user who stopped but reports each as failed with error 131050, as Meta does (docs/simulator.md).",
    success: {
      status: 200,
      description: 'The setting.',
      example: { business: '14155550100', stopped: true },
    },
    errors: { 400: '`stopped` must be true or false' },
    requestExample: { business: '+14155550100', stopped: true },
  },
  'GET /simulator/users/{phone}/chat': {
    operationId: 'simulatorChat',
    refusals: 'simulator',
    description: "A virtual user's chat with one business number (`?with=`), both directions, oldest first.",
    success: {
      status: 200,
      description: 'The chat.',
      example: {
        business: '14155550100',
        messages: [{ ...CHAT_MESSAGE, direction: 'in', business: '14155550100' }],
      },
    },
    errors: { 400: '`with` must be the business number, with country code' },
    query: [{ name: 'with', required: true, description: 'The business number of the chat.' }],
  },
  'GET /simulator/users/{phone}/chats': {
    operationId: 'simulatorChats',
    refusals: 'simulator',
    description: 'The business numbers a virtual user talked with, most recent first.',
    success: {
      status: 200,
      description: 'The chats.',
      example: {
        chats: [
          {
            business: '14155550100',
            lastMessageAt: '2026-11-25T18:06:41.292Z',
            last: 'Your order #42 has shipped.',
          },
        ],
      },
    },
    errors: { 400: BAD_PHONE },
  },
  'GET /simulator/users/{phone}/media/{id}': {
    operationId: 'simulatorMedia',
    refusals: 'simulator',
    description:
      "The bytes of a media file of this phone's chats, served so that nothing in it can run (a download, under a sandboxing policy).",
    success: { status: 200, description: 'The file.', example: "(the file's bytes)" },
    errors: {
      400: BAD_PHONE,
      404: '`id`: this phone has no media "9123456789012345" (it may have been forgotten)',
    },
  },
  'GET /simulator/users/{phone}/flows/{messageId}': {
    operationId: 'simulatorFlowScreens',
    refusals: 'simulator',
    description:
      'The screens of a flow message the phone received, drawn as the phone shows them, for the phone page to walk.',
    success: {
      status: 200,
      description: "The flow's screens.",
      example: {
        messageId: MESSAGE.id,
        business: '14155550100',
        name: 'Sign up',
        cta: 'Start',
        firstScreen: 'SIGN_UP',
        screens: [{ id: 'SIGN_UP', title: 'Sign up', examples: {}, html: '<form>…</form>' }],
      },
    },
    errors: {
      400: BAD_PHONE,
      404: '`messageId`: this phone received no flow message "wamid.HBgMMjU0NzEyMzQ1Njc4FQIAERgUM0NCMDNEQUE4QzYyMzREQzVGOEEA"',
    },
  },
  'GET /simulator/users/{phone}/events': {
    operationId: 'simulatorPhoneEvents',
    refusals: 'simulator',
    description:
      'A live stream (Server-Sent Events) of the phone: `event: message` for each message it receives or sends, `event: status` for each status change. No replay: read the chat first.',
    success: {
      status: 200,
      description: 'An event stream (text/event-stream).',
      example: 'event: message\ndata: {"id":"wamid....","direction":"in",...}\n\n',
    },
    errors: { 400: BAD_PHONE, 429: 'too many live streams are open for this phone or this simulator' },
  },
};
