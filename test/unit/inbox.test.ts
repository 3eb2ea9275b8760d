/**
 * The inbox's rules (src/domain/inbox/) and how its thread draws what customers send
 * (src/portal/inbox/message-content.ts): the order of a thread dated to the second, the 24-hour window,
 * who a conversation may be assigned to, one-line summaries, and that nothing a customer sent becomes
 * markup or a link it should not be.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { GatewayError } from '../../src/domain/errors.ts';
import {
  assignConversation,
  type InboxDeps,
  replyWindow,
  setConversationState,
  threadEntries,
} from '../../src/domain/inbox/inbox-service.ts';
import { messageSummary } from '../../src/domain/message-summary.ts';
import type { InboundMessage } from '../../src/domain/ports/inbound.ts';
import type { Conversation, InboxStore } from '../../src/domain/ports/inbox.ts';
import type { SentMessage } from '../../src/domain/ports/messages.ts';
import { messageContent } from '../../src/portal/inbox/message-content.ts';

const SECOND = Date.UTC(2026, 10, 26, 9);
const DAY = 24 * 60 * 60 * 1000;

const received = (id: string, receivedAt: number, handledAt: number | null): InboundMessage => ({
  id,
  accountId: 'acc_1',
  waId: `wamid.${id}`,
  businessPhone: '14155550123',
  userPhone: '447911300001',
  userId: null,
  username: null,
  profileName: null,
  type: 'text',
  payload: '{}',
  receivedAt,
  handledAt,
});

const sent = (id: string, createdAt: number): SentMessage => ({
  id,
  accountId: 'acc_1',
  clientMessageId: id,
  requestHash: '',
  kind: 'text',
  fromPhone: '14155550123',
  toPhone: '447911300001',
  content: '{}',
  waId: null,
  status: 'SENT',
  statusRank: 1,
  error: null,
  createdAt,
  updatedAt: createdAt,
});

const conversation = (lastInboundAt: number | null): Conversation => ({
  id: 'cnv_1',
  accountId: 'acc_1',
  businessPhone: '14155550123',
  userPhone: '447911300001',
  profileName: null,
  preview: '',
  lastActivityAt: 0,
  unread: 0,
  state: 'open',
  assigneeId: null,
  updatedAt: 0,
  lastInboundAt,
});

describe('a thread in the order things happened', () => {
  test('within one second of the network, the moments the gateway handled the messages decide', () => {
    // The store lists each direction newest first.
    const entries = threadEntries(
      [received('in_b', SECOND, SECOND + 700), received('in_a', SECOND, SECOND + 100)],
      [sent('out_1', SECOND + 400)],
    );
    assert.deepEqual(
      entries.map((e) => e.message.id),
      ['in_a', 'out_1', 'in_b'],
    );
  });

  test('a message handled after its second ends stays in that second, after those handled in it', () => {
    const entries = threadEntries(
      // `in_slow` was handled late; `in_next` was sent in the same second after `in_slow` was handled.
      [received('in_next', SECOND, SECOND + 1300), received('in_slow', SECOND, SECOND + 950)],
      [sent('out_1', SECOND + 400), sent('out_2', SECOND + 1400)],
    );
    assert.deepEqual(
      entries.map((e) => e.message.id),
      ['out_1', 'in_slow', 'in_next', 'out_2'],
    );
  });
});

describe('the 24-hour window', () => {
  test('open until a day after the customer last wrote, then closed', () => {
    assert.deepEqual(replyWindow(conversation(SECOND), SECOND + DAY - 1), {
      open: true,
      closesAt: SECOND + DAY,
    });
    assert.deepEqual(replyWindow(conversation(SECOND), SECOND + DAY), { open: false, lastInboundAt: SECOND });
    assert.deepEqual(replyWindow(conversation(null), SECOND), { open: false, lastInboundAt: null });
  });
});

describe('assigning and closing', () => {
  const assigned: (string | null)[] = [];
  const store = {
    find: async (accountId: string, id: string) =>
      accountId === 'acc_1' && id === 'cnv_1' ? conversation(null) : undefined,
    assign: async (_a: string, _id: string, to: string | null) => {
      assigned.push(to);
      return true;
    },
    setState: async (accountId: string) => accountId === 'acc_1',
  } as Pick<InboxStore, 'find' | 'assign' | 'setState'> as InboxStore;
  const deps: InboxDeps = {
    inbox: store,
    members: async () => [
      { id: 'usr_agent', email: 'a@x.example', createdAt: 0, lastSignInAt: null, role: 'agent' },
      { id: 'usr_dev', email: 'd@x.example', createdAt: 0, lastSignInAt: null, role: 'developer' },
    ],
  };

  test('only to a member whose role opens the inbox, or to nobody', async () => {
    await assignConversation(deps, 'acc_1', 'cnv_1', 'usr_agent');
    await assignConversation(deps, 'acc_1', 'cnv_1', '');
    await assert.rejects(assignConversation(deps, 'acc_1', 'cnv_1', 'usr_dev'), (e: GatewayError) => {
      assert.equal(e.status, 400);
      assert.equal(e.field, 'assignee');
      return true;
    });
    await assert.rejects(assignConversation(deps, 'acc_2', 'cnv_1', 'usr_agent'), { status: 404 });
    assert.deepEqual(assigned, ['usr_agent', null]);
  });

  test('a state is open or closed; another account’s conversation is not found', async () => {
    await setConversationState(deps, 'acc_1', 'cnv_1', 'closed');
    await assert.rejects(setConversationState(deps, 'acc_1', 'cnv_1', 'archived'), { status: 400 });
    await assert.rejects(setConversationState(deps, 'acc_2', 'cnv_1', 'open'), { status: 404 });
  });
});

describe('what a message says', () => {
  const json = (message: object) => JSON.stringify(message);
  const draw = (message: object, copy?: string) =>
    messageContent('text', json(message), { copy, ownName: (name) => name }).value;

  test('one line for each kind, in words instead of its type', () => {
    const flow = {
      type: 'interactive',
      interactive: { type: 'nfm_reply', nfm_reply: { response_json: '{}' } },
    };
    assert.equal(messageSummary('interactive', json(flow)), 'Flow answers');
    const card = { type: 'contacts', contacts: [{ name: { formatted_name: 'Ana Diaz' } }] };
    assert.equal(messageSummary('contacts', json(card)), 'Contact card: Ana Diaz');
    assert.equal(
      messageSummary('location', json({ type: 'location', location: { latitude: 1, longitude: 2 } })),
      'Location',
    );
    assert.equal(
      messageSummary('reaction', json({ type: 'reaction', reaction: { emoji: '👍' } })),
      'Reacted 👍',
    );
    assert.equal(messageSummary('text', json({ type: 'text', text: { body: 'x'.repeat(200) } })).length, 90);
  });

  test("a customer's words are text, never markup", () => {
    const html = draw({
      type: 'text',
      text: { body: '<script>alert(1)</script><img src=x onerror=alert(1)>' },
    });
    assert.ok(!html.includes('<script>') && !html.includes('<img'));
    assert.match(html, /&lt;script&gt;/);
  });

  test("a flow's answers are a labelled table without its token", () => {
    const response = { first_name: 'Ana', marketing: true, flow_token: 'secret-token', tags: ['a', 'b'] };
    const html = draw({
      type: 'interactive',
      interactive: { type: 'nfm_reply', nfm_reply: { response_json: JSON.stringify(response) } },
    });
    // Each isolated, so that a right-to-left override in an answer cannot reorder what follows it.
    assert.match(html, /<th scope="row"><bdi>First name<\/bdi><\/th><td><bdi>Ana<\/bdi><\/td>/);
    assert.match(html, /<th scope="row"><bdi>Marketing<\/bdi><\/th><td><bdi>Yes<\/bdi><\/td>/);
    assert.match(html, /<td><bdi>a, b<\/bdi><\/td>/);
    assert.ok(!html.includes('secret-token'));
  });

  test('a location is linked to a map only with numbers for coordinates', () => {
    assert.match(
      draw({ type: 'location', location: { latitude: -1.29, longitude: 36.82 } }),
      /openstreetmap\.org\/\?mlat=-1\.29&amp;mlon=36\.82/,
    );
    const forged = draw({ type: 'location', location: { latitude: '1" onmouseover="x', longitude: 2 } });
    assert.ok(!forged.includes('href'));
  });

  test("a file is shown from the gateway's copy; a link the business sent only when it is https", () => {
    assert.match(
      draw({ type: 'image', image: { id: '1', caption: 'receipt' } }, '/media/med_1?s=x'),
      /<img src="\/media\/med_1\?s=x" alt="receipt"/,
    );
    assert.ok(
      !draw({ type: 'document', document: { link: 'javascript:alert(1)', filename: 'a.pdf' } }).includes(
        'href',
      ),
    );
    assert.match(
      draw({ type: 'document', document: { link: 'https://example.com/a.pdf' } }),
      /href="https:\/\/example\.com\/a\.pdf"/,
    );
  });
});
