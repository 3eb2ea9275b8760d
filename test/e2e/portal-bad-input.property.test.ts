/**
 * Generated garbage at every form of the portal, sent by a signed-in browser with a valid CSRF token, and
 * at its pages' query strings and ids: every answer is a page (2xx), a redirect (3xx) or a refusal (4xx),
 * never a 5xx. The repeated fields, odd unicode and huge values are what a hostile or broken client sends.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { issuePortalInvite } from '../../src/domain/portal-invites.ts';
import { anyCodePoints } from '../support/code-points.ts';
import { joinSandbox, startGateway, type TestGateway } from '../support/gateway.ts';
import { PortalClient } from '../support/portal-client.ts';

const FORMS: [string, string[]][] = [
  ['/app/settings/keys', ['name']],
  ['/app/settings/keys/key_x/revoke', []],
  [
    '/app/templates',
    [
      'phoneNumber',
      'name',
      'language',
      'category',
      'headerText',
      'headerExample',
      'body',
      'bodyExamples',
      'footer',
      'headerFormat',
      'button1Type',
      'button1Text',
      'button1Value',
    ],
  ],
  ['/app/flows', ['phoneNumber', 'name', 'categories', 'flowJson']],
  ['/app/flows/1/publish', []],
  ['/app/flows/1/edit', ['name', 'categories', 'flowJson']],
  ['/app/team', ['email', 'role']],
  ['/app/profile', ['timeZone']],
  ['/app/team/usr_x/reset', []],
  ['/app/team/usr_x/role', ['role']],
  ['/app/team/usr_x/remove', []],
  ['/app/flows/1/deprecate', []],
  ['/app/flows/1/delete', []],
  ['/app/templates/14155550100/x/delete', []],
  [
    '/app/templates/14155550100/x/edit',
    ['category', 'headerText', 'headerExample', 'bodyText', 'bodyExamples', 'footerText'],
  ],
  ['/app/webhooks', ['url', 'events']],
  ['/app/webhooks/whk_x/delete', []],
  ['/app/webhooks/whk_x/deliveries/dlv_x/redeliver', []],
  ['/app/sign-in', ['email', 'password', 'next']],
  ['/app/forgot-password', ['email']],
  // A link never issued (the live one has its own test below).
  [`/app/invite/${'A'.repeat(43)}`, ['email', 'password']],
];
const PAGES = [
  '/app/messages',
  '/app/messages/',
  '/app/templates',
  '/app/flows',
  '/app/webhooks/',
  '/app/settings',
  '/app/invite/',
  '/app/inbox',
  '/app/inbox/',
  '/app/inbox/replies',
];

/** The inbox's forms, at a conversation that exists (`CONVERSATION` is its id). */
const INBOX_FORMS: [string, string[]][] = [
  [
    '/app/inbox/CONVERSATION/reply',
    ['kind', 'message', 'mediaType', 'mediaUrl', 'caption', 'template', 'header', 'p1', 'messageId'],
  ],
  ['/app/inbox/CONVERSATION/assign', ['assignee']],
  ['/app/inbox/CONVERSATION/state', ['state']],
  ['/app/inbox/CONVERSATION/notes', ['note']],
  ['/app/inbox/cnv_x/reply', ['kind', 'message', 'messageId']],
  ['/app/inbox/replies', ['shortcut', 'text']],
  ['/app/inbox/replies/svr_x/remove', []],
];

const garbage = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  anyCodePoints(40),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '💥'.repeat(2000),
    "'; drop table accounts; --",
    '../../',
    '{"version":"7.1"}',
  ),
);

describe('generated bad input at the portal never causes a 5xx', () => {
  let t: TestGateway;
  let client: PortalClient;

  before(async () => {
    t = await startGateway();
    client = new PortalClient(t.url);
    await client.signUp('fuzz@example.org', 'a long enough password', 'Fuzz Portal');
  });
  after(() => t.close());

  test('forms with generated, missing and repeated fields', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FORMS),
        fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 12 }), fc.constant('name')), garbage), {
          maxLength: 6,
        }),
        fc.boolean(),
        async ([path, known], extra, repeat) => {
          const fields: Record<string, string | string[]> = {};
          for (const name of known) fields[name] = repeat ? ['x', 'y'] : 'x';
          for (const [name, value] of extra) fields[name === '_csrf' ? 'csrf_' : name] = value;
          const r = await client.post(path, fields);
          assert.ok(r.status < 500, `${path} ${JSON.stringify(fields).slice(0, 200)} answered ${r.status}`);
          // Sign-in with garbage must not sign this browser out of its own session in a broken state.
          if (path === '/app/sign-in') await client.get('/app/settings');
        },
      ),
      { numRuns: 250 },
    );
  });

  test('a live one-time link with generated, missing and repeated fields', async () => {
    const accounts = await t.gateway.repos.accounts.listAccounts();
    const accountId = accounts.find((a) => a.name === 'Fuzz Portal')!.id;
    await fc.assert(
      fc.asyncProperty(garbage, garbage, fc.boolean(), async (email, password, repeat) => {
        // A fresh link for each case, opened by a browser with no session, as a new person would.
        const { token } = await issuePortalInvite(
          { accounts: t.gateway.repos.accounts, invites: t.gateway.repos.portalInvites },
          { accountId },
          Date.now(),
        );
        const visitor = new PortalClient(t.url);
        const opened = await visitor.get(`/app/invite/${token}`);
        assert.equal(opened.status, 200);
        const fields = repeat ? { email: [email, email], password: [password, 'x'] } : { email, password };
        const r = await visitor.post(`/app/invite/${token}`, fields);
        assert.ok(r.status < 500, `${JSON.stringify(fields).slice(0, 200)} answered ${r.status}`);
        // The form's own token went with it: the fields were read, not refused at the door.
        assert.notEqual(r.status, 403);
      }),
      { numRuns: 60 },
    );
  });

  test("the inbox's forms at a real conversation, and its pages' queries", async () => {
    const account = (await t.gateway.repos.accounts.listAccounts()).find((a) => a.name === 'Fuzz Portal')!;
    await joinSandbox(t, { accountId: account.id, joinCode: account.joinCode, apiKey: '' }, '447911200977');
    const conversation = await t.gateway.store.db
      .selectFrom('inbox_conversations')
      .select('id')
      .where('account_id', '=', account.id)
      .executeTakeFirstOrThrow();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...INBOX_FORMS),
        fc.array(
          fc.tuple(fc.constantFrom('kind', 'state', 'assignee', 'template', 'p1', 'messageId'), garbage),
          {
            maxLength: 4,
          },
        ),
        fc.constantFrom('text', 'media', 'template', 'open', 'closed', ''),
        async ([path, known], extra, value) => {
          const fields: Record<string, string> = {};
          for (const name of known) fields[name] = name === 'kind' || name === 'state' ? value : 'x';
          for (const [name, v] of extra) fields[name] = v;
          const at = path.replace('CONVERSATION', conversation.id);
          const r = await client.post(at, fields);
          assert.ok(r.status < 500, `${at} ${JSON.stringify(fields).slice(0, 200)} answered ${r.status}`);
          const read = await client.get(
            `/app/inbox/${conversation.id}?template=${encodeURIComponent(String(extra[0]?.[1] ?? ''))}`,
          );
          assert.ok(read.status < 500, `the conversation page answered ${read.status}`);
        },
      ),
      { numRuns: 80 },
    );
  });

  test('pages with generated query strings and ids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PAGES), garbage, garbage, async (page, key, value) => {
        const query = `${encodeURIComponent(key.toWellFormed())}=${encodeURIComponent(value.toWellFormed())}`;
        const path = page.endsWith('/')
          ? `${page}${encodeURIComponent(value.toWellFormed().slice(0, 200))}`
          : `${page}?${query}`;
        const r = await client.get(path);
        assert.ok(r.status < 500, `${path.slice(0, 200)} answered ${r.status}`);
      }),
      { numRuns: 200 },
    );
  });
});
