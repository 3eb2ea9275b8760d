/**
 * Usernames and business-scoped user ids on the simulated network (docs/cloud-api.md §10): a user with a
 * username who withholds their number writes with no `from`, named only by `from_user_id` and the
 * contact's `user_id`; each user's id is the same every time for one business and differs between
 * businesses; a send may name its recipient by that id (`recipient`) and is answered with it; an id the
 * business's users were never given is refused, naming `recipient`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BUSINESS,
  graphSend,
  type Harness,
  inboundFor,
  request,
  startHarness,
  TOKEN,
  USER,
  userSays,
  VERSION,
} from './harness.ts';

describe('usernames and business-scoped user ids', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('a user who withholds their number is named only by their id and username', async () => {
    const r = await userSays(h, {
      text: 'Hi, no number',
      profileName: 'Jo',
      username: 'jo.travels',
      hideNumber: true,
    });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const value = await inboundFor(h, r.body.id);
    const [contact] = value.contacts;
    assert.deepEqual(Object.keys(contact).sort(), ['profile', 'user_id']);
    assert.deepEqual(contact.profile, { name: 'Jo', username: 'jo.travels' });
    const [m] = value.messages;
    assert.equal(m.from, undefined, 'no number');
    assert.equal(m.from_user_id, contact.user_id);

    const again = await inboundFor(h, (await userSays(h, { text: 'With number' })).body.id);
    assert.equal(again.contacts[0].user_id, contact.user_id, 'the same id every time');
    assert.equal(again.messages[0].from, USER);
  });

  test('ids differ between businesses', async () => {
    const a = await inboundFor(h, (await userSays(h, { text: 'a' })).body.id);
    const other = await request(`${h.base}/users/${USER}/messages`, {
      body: { to: '14155550199', text: 'b' },
    });
    const b = await inboundFor(h, other.body.id);
    assert.notEqual(a.contacts[0].user_id, b.contacts[0].user_id);
  });

  test('a send names its recipient by id and is answered with it; an unknown id is refused', async () => {
    const value = await inboundFor(h, (await userSays(h, { text: 'open the window' })).body.id);
    const userId = value.contacts[0].user_id as string;
    const sent = await request(`${h.base}/${VERSION}/${BUSINESS}/messages`, {
      token: TOKEN,
      body: { messaging_product: 'whatsapp', recipient: userId, type: 'text', text: { body: 'By id' } },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.deepEqual(sent.body.contacts, [{ input: userId, user_id: userId }]);
    const phone = await request(`${h.base}/users/${USER}/messages`);
    assert.ok(phone.body.messages.some((m: { rendered: string }) => m.rendered === 'By id'));

    const unknown = await request(`${h.base}/${VERSION}/${BUSINESS}/messages`, {
      token: TOKEN,
      body: {
        messaging_product: 'whatsapp',
        recipient: 'US.99999999999999999999',
        type: 'text',
        text: { body: 'x' },
      },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.error_data.details, /Parameter 'recipient' is not a user id/);
    // `to` wins when both are there, as on Meta.
    const both = await graphSend(h, {
      type: 'text',
      text: { body: 'both' },
      recipient: 'US.99999999999999999999',
    });
    assert.equal(both.status, 200);
  });

  test('hiding the number needs a username, and a username has Meta\u2019s form', async () => {
    const noName = await userSays(h, { text: 'x', hideNumber: true });
    assert.equal(noName.status, 400);
    assert.match(noName.body.error.message, /`hideNumber` needs a `username`/);
    const badName = await userSays(h, { text: 'x', username: 'No Spaces' });
    assert.equal(badName.status, 400);
    assert.match(badName.body.error.message, /`username` must be 3 to 35 characters/);
  });
});
