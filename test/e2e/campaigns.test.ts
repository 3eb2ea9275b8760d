/**
 * Campaigns end to end (docs/campaigns.md), on SQLite and PostgreSQL: a gateway on a real port with the
 * simulated network, an account's own number, an approved marketing template, contacts imported through
 * the API and a CSV audience uploaded to it. Checked on the virtual phones (what the network really
 * delivered): a tag audience and a CSV audience of 1,000 recipients together complete with exact counts,
 * every recipient messaged once with their own values, nobody who opted out messaged; a pause stops the
 * sending and a resume finishes it; a cancel stops it for good; a scheduled campaign starts at its time;
 * the account's endpoint hears `campaign.status` and `campaign.completed`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFaults } from '../support/faults.ts';
import {
  addSimulatedNumber,
  call,
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { postNetworkWebhook, unixSeconds } from '../support/network-envelopes.ts';
import { postgresSkipReason } from '../support/postgres.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const NUMBER = '14155550123';
/** A second number, on a slow tier, where pauses and cancels land mid-campaign. */
const SLOW_NUMBER = '14155550124';
const BODY =
  'Hello {{1}}, our winter sale has started: enjoy {{2}} off every coat in our {{3}} shop until Sunday.';
const PARAMETERS = [
  { field: 'name', fallback: 'there' },
  { value: '20%' },
  { attribute: 'city', fallback: 'local' },
];

const vip = (i: number) => `4479112${String(i).padStart(5, '0')}`;
const csvUser = (i: number) => `2547120${String(i).padStart(5, '0')}`;
const slowUser = (i: number) => `2547130${String(i).padStart(5, '0')}`;
/** A third number, with a messaging limit of 250 new users in 24 hours. */
const CAPPED_NUMBER = '14155550125';
const cappedUser = (i: number) => `2547140${String(i).padStart(5, '0')}`;

// The two stores' suites run side by side: each has its gateway, network and receiver, and most of their
// time is spent waiting for a number's pace, not computing. Within each, the tests run one at a time.
describe('campaigns', { concurrency: true }, () => {
  for (const database of ['sqlite', 'postgres'] as const) {
    describe(`campaigns on ${database}`, { concurrency: false }, async () => {
      const skip = database === 'postgres' ? await postgresSkipReason() : false;
      let t: TestGateway;
      let a: TestAccount;
      let receiver: Receiver;
      const api = (method: string, route: string, body?: unknown) =>
        call(t.url, method, route, { key: a.apiKey, ...(body !== undefined ? { body } : {}) });
      const phone = async (user: string) => {
        const r = await call(t.url, 'GET', `/simulator/users/${user}/messages`);
        return (r.body.messages as { from: string; rendered: string }[]).filter((m) => m.from !== user);
      };
      const campaignOf = async (id: string) => (await api('GET', `/api/v1/campaigns/${id}`)).body.data;
      /** Polls a campaign's counts a few times a second: each read adds up every recipient. */
      const watch = <T>(check: () => Promise<T | undefined | false>, timeoutMs = 60_000) =>
        eventually(async () => {
          await sleep(150);
          return check();
        }, timeoutMs);

      async function addNumber(phoneNumber: string, perSecond: number | null) {
        await addSimulatedNumber(t, a.accountId, phoneNumber);
        if (perSecond) await t.gateway.repos.numbers.setThroughput(a.accountId, phoneNumber, perSecond);
        const created = await api('POST', `/api/v1/template/${phoneNumber}`, {
          name: 'winter_sale',
          language: 'en_US',
          category: 'MARKETING',
          component: { body: { text: BODY, examples: ['Amina', '20%', 'Nairobi'] } },
        });
        assert.equal(created.status, 200, JSON.stringify(created.body));
        await call(t.url, 'POST', `/simulator/templates/${created.body.data.id}/review`, { body: {} });
      }

      async function createCampaign(body: Record<string, unknown>) {
        const created = await api('POST', '/api/v1/campaigns', {
          name: 'Winter sale',
          from: `+${NUMBER}`,
          template: { name: 'winter_sale', language: 'en_US' },
          parameters: PARAMETERS,
          ...body,
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        return created.body.data.id as string;
      }

      async function uploadCsv(id: string, csv: string) {
        const form = new FormData();
        form.append('file', new Blob([csv], { type: 'text/csv' }), 'audience.csv');
        const r = await fetch(`${t.url}/api/v1/campaigns/${id}/audience`, {
          method: 'POST',
          headers: { apiKey: a.apiKey },
          body: form,
        });
        return { status: r.status, body: (await r.json()) as any };
      }

      /**
       * A campaign from the slow number to 40 new contacts tagged `tag` (slow users from `first`), started
       * and seen to have sent at least `sent`: still sending when the test acts on it.
       */
      async function sendingFromSlowNumber(tag: string, first: number, sent: number) {
        const users = Array.from({ length: 40 }, (_, i) => slowUser(first + i));
        await api('POST', '/api/v1/contacts', {
          contacts: users.map((u) => ({ phone: `+${u}`, tags: [tag] })),
        });
        const id = await createCampaign({ from: `+${SLOW_NUMBER}`, audience: { tags: [tag] } });
        await api('POST', `/api/v1/campaigns/${id}/start`);
        await watch(async () => (await campaignOf(id)).counts.sent >= sent);
        return { id, users };
      }

      /** The campaign once no recipient is being sent any more (those under way at a pause have finished). */
      async function untilNoneSending(id: string) {
        await eventually(async () => {
          const queued = await api('GET', `/api/v1/campaigns/${id}/recipients?status=queued&per_page=500`);
          return !queued.body.data.recipients.some((r: { status: string }) => r.status === 'sending');
        });
        return campaignOf(id);
      }

      /** Every recipient's phone: how many messages of the business each holds. */
      async function deliveries(users: string[]): Promise<Map<string, string[]>> {
        const seen = new Map<string, string[]>();
        for (let i = 0; i < users.length; i += 50) {
          const chunk = users.slice(i, i + 50);
          const texts = await Promise.all(chunk.map(async (u) => (await phone(u)).map((m) => m.rendered)));
          for (const [j, u] of chunk.entries()) seen.set(u, texts[j]!);
        }
        return seen;
      }

      before(async () => {
        if (skip) return;
        t = await startGateway({
          database,
          env: {
            WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
            SIMULATOR_TEMPLATE_REVIEW_MS: '600000',
            NETWORK_MAX_SENDS_PER_SECOND: '1000',
            SIMULATOR_MAX_SENDS_PER_SECOND: '1000',
            // Statuses cost three webhooks a message; they are exercised in campaign-crash.test.ts and
            // the portal's browser test. Here a sent message stays SENT.
            SIMULATOR_STATUS_WEBHOOKS: 'false',
          },
        });
        receiver = await startReceiver();
        a = await createAccount(t, 'Winter Co');
        const hook = await api('POST', '/api/v1/webhooks', {
          url: receiver.url,
          events: ['campaign.status', 'campaign.completed'],
        });
        assert.equal(hook.status, 201, JSON.stringify(hook.body));
        await addNumber(NUMBER, null);
        await addNumber(SLOW_NUMBER, 10);
        await addNumber(CAPPED_NUMBER, null);
        await t.gateway.repos.numbers.setMessagingLimit(a.accountId, CAPPED_NUMBER, 250);
        await eventually(async () => {
          const lists = await Promise.all(
            [NUMBER, SLOW_NUMBER, CAPPED_NUMBER].map((n) =>
              api('GET', `/api/v1/template/${n}?name=winter_sale`),
            ),
          );
          return lists.every((l) => l.body.data.data[0]?.status === 'APPROVED');
        });
      });
      after(async () => {
        if (skip) return;
        await t.close();
        await receiver.close();
      });

      test('a tag audience and a CSV audience of 1,000 together: exact counts, each once, no opt-out', {
        skip,
      }, async () => {
        const contacts = Array.from({ length: 600 }, (_, i) => ({
          phone: `+${vip(i)}`,
          name: `Vip ${i}`,
          tags: ['vip'],
          ...(i % 2 ? { attributes: { city: 'Nairobi' } } : {}),
        }));
        assert.equal((await api('POST', '/api/v1/contacts', { contacts })).status, 200);
        const optedOut = [3, 50, 333, 512, 599].map(vip);
        for (const user of optedOut) await userSays(t, user, `+${NUMBER}`, { text: 'STOP' });
        await eventually(async () => {
          const found = await Promise.all(
            optedOut.map((u) => t.gateway.repos.optOuts.find(a.accountId, NUMBER, u)),
          );
          return found.every(Boolean);
        });

        const byTag = await createCampaign({ audience: { tags: ['vip'] } });
        const byCsv = await createCampaign({
          name: 'Winter sale, walk-ins',
          parameters: [{ field: 'name', fallback: 'there' }, { value: '20%' }, { column: 'city' }],
          audience: { csv: true },
        });
        const rows = Array.from({ length: 396 }, (_, i) => `+${csvUser(i)},Walk-in ${i},Mombasa`);
        rows.push(`+${csvUser(7)},Walk-in again,Mombasa`); // a duplicate: line 398
        rows.push('not a number,Nobody,Mombasa'); // line 399
        rows.push(`+${csvUser(900)},No City,`); // no city and no fallback: line 400
        rows.push(` ${csvUser(901).replace(/^254/, '+254 ')},Spaced,Mombasa`); // another way to write a number
        const uploaded = await uploadCsv(byCsv, `phone,name,city\n${rows.join('\n')}\n`);
        assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
        assert.deepEqual(
          { ...uploaded.body.data, campaign: undefined },
          {
            rows: 400,
            queued: 397,
            skipped: 3,
            rejected: [
              { line: 398, reason: 'duplicate: this person is already in the audience' },
              {
                line: 399,
                reason:
                  'invalid_number: `phone` must be a valid phone number with country code, or `user_id` a business-scoped user id',
              },
              { line: 400, reason: 'missing_value: parameters[2] has no value for this row and no fallback' },
            ],
            campaign: undefined,
          },
        );

        for (const id of [byTag, byCsv])
          assert.equal((await api('POST', `/api/v1/campaigns/${id}/start`)).status, 200);
        for (const id of [byTag, byCsv]) {
          await watch(async () => (await campaignOf(id)).status === 'COMPLETED', 60_000);
        }
        const tagged = await campaignOf(byTag);
        assert.deepEqual(tagged.counts, {
          total: 600,
          queued: 0,
          sent: 595,
          delivered: 0,
          read: 0,
          failed: 0,
          replied: 0,
          skipped: { total: 5, opted_out: 5, invalid_number: 0, duplicate: 0, missing_value: 0 },
        });
        const walkIns = await campaignOf(byCsv);
        assert.equal(walkIns.counts.sent, 397);
        assert.deepEqual(walkIns.counts.skipped, {
          total: 3,
          opted_out: 0,
          invalid_number: 1,
          duplicate: 1,
          missing_value: 1,
        });
        assert.equal(walkIns.counts.total, 400);

        const everyone = [
          ...contacts.map((_, i) => vip(i)),
          ...Array.from({ length: 396 }, (_, i) => csvUser(i)),
        ];
        everyone.push(csvUser(900), csvUser(901));
        const seen = await deliveries(everyone);
        for (const [user, texts] of seen) {
          const expected = optedOut.includes(user) || user === csvUser(900) ? 0 : 1;
          assert.equal(texts.length, expected, `${user} got ${texts.length} messages`);
        }
        assert.match(
          seen.get(vip(1))![0]!,
          /^Hello Vip 1, our winter sale has started: enjoy 20% off every coat in our Nairobi shop/,
        );
        assert.match(seen.get(vip(2))![0]!, /in our local shop/, 'the fallback of an empty attribute');
        assert.match(seen.get(csvUser(901))![0]!, /^Hello Spaced,/);

        // Each recipient's message is an ordinary message, found by its deterministic messageId.
        const page = await api('GET', `/api/v1/campaigns/${byTag}/recipients?status=skipped`);
        assert.deepEqual(
          page.body.data.recipients.map((r: { to: string; reason: string }) => [r.to, r.reason]).sort(),
          optedOut.map((u) => [`+${u}`, 'opted_out']).sort(),
        );
        const [first] = (await api('GET', `/api/v1/campaigns/${byTag}/recipients?status=sent&per_page=1`))
          .body.data.recipients;
        const message = await api('GET', `/api/v1/msg/message/${first.messageId}`);
        assert.equal(message.status, 200, JSON.stringify(message.body));
        assert.equal(message.body.data.status, 'SENT');

        // A recipient who answers counts as replied.
        await userSays(t, vip(1), `+${NUMBER}`, { text: 'Is the blue coat in stock?' });
        const replied = await watch(async () => {
          const c = await campaignOf(byTag);
          return c.counts.replied === 1 ? c : undefined;
        }).catch(async (e) => {
          // What "replied" is made of, so that a failure says which part was missing.
          const db = t.gateway.store.db;
          const rows = {
            recipient: await db
              .selectFrom('campaign_recipients')
              .select(['state', 'sent_at'])
              .where('campaign_id', '=', byTag)
              .where('recipient', '=', vip(1))
              .execute(),
            windows: await db
              .selectFrom('conversation_windows')
              .selectAll()
              .where('user_phone', '=', vip(1))
              .execute(),
            inbound: await db
              .selectFrom('inbound_messages')
              .select(['business_phone', 'user_phone', 'received_at', 'handled_at'])
              .where('user_phone', '=', vip(1))
              .execute(),
          };
          throw new Error(`${(e as Error).message}: ${JSON.stringify(rows)}`);
        });
        assert.equal(replied.counts.sent, 595);
        const repliers = await api('GET', `/api/v1/campaigns/${byTag}/recipients?status=replied`);
        assert.deepEqual(
          repliers.body.data.recipients.map((r: { to: string; replied: boolean }) => [r.to, r.replied]),
          [[`+${vip(1)}`, true]],
        );
        const csv = await fetch(`${t.url}/api/v1/campaigns/${byCsv}/recipients?format=csv&status=skipped`, {
          headers: { apiKey: a.apiKey },
        });
        assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
        assert.equal(
          (await csv.text()).trim().split('\n').length,
          4,
          'the header and the three skipped rows',
        );

        const completed = await eventually(() =>
          receiver.received.find(
            (r) => r.json.type === 'campaign.completed' && r.json.data.campaignId === byTag,
          ),
        );
        assert.equal(completed.json.data.status, 'COMPLETED');
        assert.equal(completed.json.data.counts.total, 600);
        assert.equal(completed.json.data.counts.skipped.opted_out, 5);
        const moves = receiver.received
          .filter((r) => r.json.type === 'campaign.status' && r.json.data.campaignId === byTag)
          .map((r) => r.json.data.status);
        assert.deepEqual(moves, ['RUNNING', 'COMPLETED']);
      });

      test('a pause stops the sending where it is; a resume finishes it, each recipient once', {
        skip,
      }, async () => {
        const users = Array.from({ length: 60 }, (_, i) => slowUser(i));
        await api('POST', '/api/v1/contacts', {
          contacts: users.map((u) => ({ phone: `+${u}`, tags: ['slow'] })),
        });
        const id = await createCampaign({ from: `+${SLOW_NUMBER}`, audience: { tags: ['slow'] } });
        await api('POST', `/api/v1/campaigns/${id}/start`);
        await watch(async () => (await campaignOf(id)).counts.sent >= 5);
        const paused = await api('POST', `/api/v1/campaigns/${id}/pause`);
        assert.equal(paused.body.data.status, 'PAUSED');
        // What was under way finishes; then nothing more leaves.
        const settled = await untilNoneSending(id);
        assert.ok(settled.counts.queued > 0 && settled.counts.queued < 60, `${settled.counts.queued} left`);
        const before = [...(await deliveries(users)).values()].filter((texts) => texts.length > 0).length;
        assert.equal(before, 60 - settled.counts.queued, 'the phones hold what was sent, no more');
        assert.equal(
          (await api('POST', `/api/v1/campaigns/${id}/pause`)).status,
          200,
          'pausing again changes nothing',
        );
        assert.equal((await api('POST', `/api/v1/campaigns/${id}/resume`)).body.data.status, 'RUNNING');
        await watch(async () => (await campaignOf(id)).status === 'COMPLETED', 30_000);
        for (const [user, texts] of await deliveries(users))
          assert.equal(texts.length, 1, `${user}: ${texts.length}`);
        assert.equal(
          (await api('POST', `/api/v1/campaigns/${id}/resume`)).status,
          409,
          'a completed one is not resumed',
        );
      });

      test('the network down for longer than a send retries: its recipients wait, and are sent once it is back', {
        skip,
      }, async () => {
        const users = Array.from({ length: 20 }, (_, i) => slowUser(600 + i));
        await api('POST', '/api/v1/contacts', {
          contacts: users.map((u) => ({ phone: `+${u}`, tags: ['outage'] })),
        });
        const id = await createCampaign({ from: `+${SLOW_NUMBER}`, audience: { tags: ['outage'] } });
        // Past a send's own retry budget (2 s): each send the campaign makes meanwhile gives up.
        await setFaults(t, { status5xx: true, forMs: 3_000 });
        await api('POST', `/api/v1/campaigns/${id}/start`);
        const done = await watch(async () => {
          const c = await campaignOf(id);
          return c.status === 'COMPLETED' && c;
        }, 60_000);
        assert.equal(done.counts.failed, 0, JSON.stringify(done.counts));
        for (const [user, texts] of await deliveries(users))
          assert.equal(texts.length, 1, `${user}: ${texts.length}`);
      });

      test('a cancel stops it for good; a scheduled one starts at its time', { skip }, async () => {
        const { id: cancelled, users } = await sendingFromSlowNumber('cancel', 100, 3);
        assert.equal(
          (await api('POST', `/api/v1/campaigns/${cancelled}/cancel`)).body.data.status,
          'CANCELLED',
        );
        const left = await untilNoneSending(cancelled);
        assert.ok(left.counts.queued > 0, 'some were never sent');
        const received = [...(await deliveries(users)).values()].filter((texts) => texts.length > 0).length;
        assert.equal(received, 40 - left.counts.queued);
        assert.equal((await api('POST', `/api/v1/campaigns/${cancelled}/resume`)).status, 409);

        const startAt = Date.now() + 1500;
        const scheduled = await createCampaign({
          name: 'Tomorrow morning',
          audience: {
            contactIds: [
              (await api('POST', '/api/v1/contacts', { phone: `+${slowUser(901)}` })).body.data.id,
            ],
          },
          startAt: new Date(startAt).toISOString(),
        });
        assert.equal(
          (await api('POST', `/api/v1/campaigns/${scheduled}/start`)).body.data.status,
          'SCHEDULED',
        );
        const done = await watch(async () => {
          const c = await campaignOf(scheduled);
          return c.status === 'COMPLETED' ? c : undefined;
        });
        assert.ok(Date.parse(done.startedAt) >= startAt, 'not started before its time');
        assert.equal(done.counts.total, 1);
      });

      test("the network flagging the number's quality pauses its campaign, saying why", {
        skip,
      }, async () => {
        const { id } = await sendingFromSlowNumber('flagged', 200, 2);
        const flagged = await call(t.url, 'POST', `/simulator/numbers/${SLOW_NUMBER}/quality`, {
          body: { event: 'FLAGGED', currentLimit: 'TIER_2K' },
        });
        assert.equal(flagged.status, 202, JSON.stringify(flagged.body));
        const paused = await watch(async () => {
          const c = await campaignOf(id);
          return c.status === 'PAUSED' ? c : undefined;
        });
        assert.equal(
          paused.statusReason,
          `the network flagged the quality of +${SLOW_NUMBER}; its messaging limit is now TIER_2K`,
        );
        const event = await eventually(() =>
          receiver.received.find(
            (r) =>
              r.json.type === 'campaign.status' &&
              r.json.data.campaignId === id &&
              r.json.data.status === 'PAUSED',
          ),
        );
        assert.equal(event.json.data.reason, paused.statusReason);
        const number = await t.gateway.repos.numbers.findNumberOfAccount(a.accountId, SLOW_NUMBER);
        assert.equal(number?.messagingLimit, 2000, "the network's word is the number's messaging limit now");
        assert.equal((await api('POST', `/api/v1/campaigns/${id}/cancel`)).status, 200);
      });

      test("the network restricting the number's business account pauses its campaign, saying why", {
        skip,
      }, async () => {
        const { id } = await sendingFromSlowNumber('restricted', 400, 2);
        // Meta's account_update; on the simulated network a number is its own WhatsApp Business Account.
        const restriction = {
          event: 'ACCOUNT_RESTRICTION',
          restriction_info: [
            { restriction_type: 'RESTRICTED_BIZ_INITIATED_MESSAGING', expiration: '2026-12-01T00:00:00Z' },
          ],
        };
        const posted = await postNetworkWebhook(t.url, {
          object: 'whatsapp_business_account',
          entry: [
            {
              id: SLOW_NUMBER,
              time: Number(unixSeconds()),
              changes: [{ field: 'account_update', value: restriction }],
            },
          ],
        });
        assert.equal(posted.status, 200, posted.text);
        // Paused before the 200: the webhook is handled before it is answered.
        const paused = await campaignOf(id);
        assert.equal(paused.status, 'PAUSED');
        assert.equal(
          paused.statusReason,
          `the network restricted business-initiated messaging of WhatsApp Business Account ${SLOW_NUMBER} until 2026-12-01T00:00:00Z`,
        );
        assert.equal((await api('POST', `/api/v1/campaigns/${id}/cancel`)).status, 200);
      });

      test('a number with a messaging limit of 250 reaches 250 new users, and those talking to it, then pauses', {
        skip,
      }, async () => {
        const users = Array.from({ length: 262 }, (_, i) => cappedUser(i));
        await api('POST', '/api/v1/contacts', {
          contacts: users.map((u) => ({ phone: `+${u}`, tags: ['capped'] })),
        });
        // Two of them wrote to the number today: their window is open, so messaging them reaches nobody new.
        const talkers = [users[100]!, users[261]!];
        for (const user of talkers) await userSays(t, user, `+${CAPPED_NUMBER}`, { text: 'Any coats left?' });
        await eventually(async () => {
          const open = await Promise.all(
            talkers.map((u) => t.gateway.repos.conversations.lastInboundAt(CAPPED_NUMBER, u)),
          );
          return open.every(Boolean);
        });
        const id = await createCampaign({ from: `+${CAPPED_NUMBER}`, audience: { tags: ['capped'] } });
        await api('POST', `/api/v1/campaigns/${id}/start`);
        const paused = await watch(async () => {
          const c = await campaignOf(id);
          return c.status === 'PAUSED' ? c : undefined;
        });
        assert.match(
          paused.statusReason,
          new RegExp(
            `^\\+${CAPPED_NUMBER} reached its messaging limit: 250 unique users in 24 hours; a new user can be reached from \\d{4}-\\d\\d-\\d\\dT`,
          ),
        );
        // Resumed while there is no room: whoever is free (a talker not sent yet) is sent, then it pauses again.
        assert.equal((await api('POST', `/api/v1/campaigns/${id}/resume`)).status, 200);
        await watch(async () => (await campaignOf(id)).status === 'PAUSED');
        await untilNoneSending(id);
        const seen = await deliveries(users);
        const reached = users.filter((u) => seen.get(u)!.length === 1);
        assert.equal(reached.length, 252);
        assert.ok(users.every((u) => seen.get(u)!.length <= 1));
        // Counts are shared for a second by everyone watching: the last sends show within it.
        const counted = await watch(async () => {
          const c = await campaignOf(id);
          return c.counts.sent === 252 ? c : undefined;
        });
        assert.equal(counted.counts.queued, 10);
        for (const user of talkers)
          assert.equal(seen.get(user)!.length, 1, `${user} was talking to the number`);
        assert.equal((await api('POST', `/api/v1/campaigns/${id}/cancel`)).status, 200);
      });

      test('a message refused for the messaging limit (131064) pauses the campaign, saying why', {
        skip,
      }, async () => {
        const { id } = await sendingFromSlowNumber('limit', 300, 2);
        const [first] = (await api('GET', `/api/v1/campaigns/${id}/recipients?status=sent&per_page=1`)).body
          .data.recipients;
        const { waId } = (await api('GET', `/api/v1/msg/message/${first.messageId}`)).body.data;
        // The network's report, as it posts it: the message failed because the number reached its limit.
        const status = {
          id: waId,
          status: 'failed',
          timestamp: unixSeconds(),
          recipient_id: first.to.slice(1),
          errors: [{ code: 131064, title: 'Messaging limit reached', message: 'Messaging limit reached' }],
        };
        const change = {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: SLOW_NUMBER, phone_number_id: SLOW_NUMBER },
            statuses: [status],
          },
        };
        const posted = await postNetworkWebhook(t.url, {
          object: 'whatsapp_business_account',
          entry: [{ id: SLOW_NUMBER, changes: [change] }],
        });
        assert.equal(posted.status, 200, posted.text);
        const paused = await watch(async () => {
          const c = await campaignOf(id);
          return c.status === 'PAUSED' ? c : undefined;
        });
        assert.match(paused.statusReason, /reached its messaging limit .*\(#131064\)$/);
        assert.equal((await api('POST', `/api/v1/campaigns/${id}/cancel`)).status, 200);
      });

      test('bad requests are refused naming the field; another account sees nothing', { skip }, async () => {
        const bad = await api('POST', '/api/v1/campaigns', {
          name: 'x',
          from: `+${NUMBER}`,
          template: { name: 'winter_sale', language: 'en_US' },
          parameters: [{ value: 'only one' }],
          audience: { tags: ['vip'] },
        });
        assert.equal(bad.status, 400);
        assert.equal(bad.body.errors?.[0]?.field ?? bad.body.field ?? 'parameters', 'parameters');
        assert.match(bad.body.message, /`parameters`/);
        const unknown = await api('POST', '/api/v1/campaigns', {
          name: 'x',
          from: `+${NUMBER}`,
          template: { name: 'no_such', language: 'en_US' },
          audience: { tags: ['vip'] },
        });
        assert.equal(unknown.status, 400);
        assert.match(unknown.body.message, /has no template "no_such"/);
        const id = await createCampaign({ audience: { csv: true } });
        assert.equal((await api('POST', `/api/v1/campaigns/${id}/start`)).status, 409, 'no audience yet');
        const noColumns = await uploadCsv(id, 'name,city\nAmina,Nairobi\n');
        assert.equal(noColumns.status, 400);
        // A double click on Start: one start, one 409, never a 500.
        const someone = (await api('POST', '/api/v1/contacts', { phone: `+${slowUser(900)}` })).body.data.id;
        const twice = await createCampaign({ audience: { contactIds: [someone] } });
        const starts = await Promise.all([1, 2].map(() => api('POST', `/api/v1/campaigns/${twice}/start`)));
        assert.deepEqual(
          starts.map((r) => r.status).sort(),
          [200, 409],
          JSON.stringify(starts.map((r) => r.body)),
        );
        // Its one recipient may already have been sent: a completed campaign is not cancelled (409).
        const cancelled = await api('POST', `/api/v1/campaigns/${twice}/cancel`);
        assert.ok(
          cancelled.status === 200 || (await campaignOf(twice)).status === 'COMPLETED',
          JSON.stringify(cancelled.body),
        );
        const other = await createAccount(t, 'Other Co');
        const peek = await call(t.url, 'GET', `/api/v1/campaigns/${id}`, { key: other.apiKey });
        assert.equal(peek.status, 404);
        const list = await call(t.url, 'GET', '/api/v1/campaigns', { key: other.apiKey });
        assert.equal(list.body.data.total, 0);
      });
    });
  }
});
