/** Virtual user phones: what users send becomes signed `messages` webhooks; what they receive is readable. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  inboundFor,
  openWindow,
  request,
  startHarness,
  USER,
  userSays,
} from './harness.ts';

/** The single `messages` webhook carrying inbound message `id`. */
describe('virtual user phones', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('a text becomes a signed messages webhook in Meta shape', async () => {
    const r = await userSays(h, { text: 'Hello there', profileName: 'Jane' });
    assert.equal(r.status, 202);
    assert.match(r.body.id, /^wamid\./);
    const value = await inboundFor(h, r.body.id);
    assert.deepEqual(value.metadata, { display_phone_number: BUSINESS, phone_number_id: BUSINESS });
    // Meta names every user by a business-scoped id too (docs/cloud-api.md §10).
    const userId = value.contacts[0].user_id;
    assert.match(userId, /^KE\.\d{20}$/);
    assert.deepEqual(value.contacts, [{ profile: { name: 'Jane' }, wa_id: USER, user_id: userId }]);
    assert.equal(value.messages.length, 1);
    const [m] = value.messages;
    assert.equal(m.from, USER);
    assert.equal(m.from_user_id, userId);
    assert.equal(m.id, r.body.id);
    assert.match(m.timestamp, /^\d{10}$/);
    assert.equal(m.type, 'text');
    assert.deepEqual(m.text, { body: 'Hello there' });
  });

  test('the profile name defaults to the last four digits', async () => {
    const r = await userSays(h, { text: 'anonymous' });
    const value = await inboundFor(h, r.body.id);
    assert.equal(value.contacts[0].profile.name, `User ${USER.slice(-4)}`);
  });

  test('a location becomes an inbound location message', async () => {
    const r = await userSays(h, {
      location: { latitude: -1.2921, longitude: 36.8219, name: 'Office', address: 'Nairobi' },
    });
    assert.equal(r.status, 202);
    const [m] = (await inboundFor(h, r.body.id)).messages;
    assert.equal(m.type, 'location');
    assert.deepEqual(m.location, {
      latitude: -1.2921,
      longitude: 36.8219,
      name: 'Office',
      address: 'Nairobi',
    });
  });

  test('tapping a button or list row answers the message that offered it', async () => {
    await openWindow(h);
    const buttons = await graphSend(h, {
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Confirm delivery?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'yes', title: 'Yes' } },
            { type: 'reply', reply: { id: 'no', title: 'No' } },
          ],
        },
      },
    });
    const list = await graphSend(h, {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Pick one' },
        action: {
          button: 'Menu',
          sections: [
            {
              rows: [
                { id: 'burger', title: 'Burger', description: 'Beef, 200 g' },
                { id: 'salad', title: 'Salad' },
              ],
            },
          ],
        },
      },
    });

    const tapButton = await userSays(h, { reply: { id: 'no' } });
    assert.equal(tapButton.status, 202);
    const [button] = (await inboundFor(h, tapButton.body.id)).messages;
    assert.equal(button.type, 'interactive');
    assert.deepEqual(button.context, { from: BUSINESS, id: buttons.body.messages[0].id });
    assert.deepEqual(button.interactive, { type: 'button_reply', button_reply: { id: 'no', title: 'No' } });

    const tapRow = await userSays(h, { reply: { id: 'burger' } });
    const [row] = (await inboundFor(h, tapRow.body.id)).messages;
    assert.deepEqual(row.context, { from: BUSINESS, id: list.body.messages[0].id });
    assert.deepEqual(row.interactive, {
      type: 'list_reply',
      list_reply: { id: 'burger', title: 'Burger', description: 'Beef, 200 g' },
    });
    const [plain] = (await inboundFor(h, (await userSays(h, { reply: { id: 'salad' } })).body.id)).messages;
    assert.deepEqual(plain.interactive.list_reply, { id: 'salad', title: 'Salad' });
  });

  test('a tap on an id no received message offers is refused', async () => {
    const r = await userSays(h, { reply: { id: 'does-not-exist' } });
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /does-not-exist/);
    // Another business never offered it either.
    const other = await userSays(h, { to: '16505551234', reply: { id: 'yes' } });
    assert.equal(other.status, 400);
  });

  test('bad phones and bodies are refused naming the field', async () => {
    const badPhone = await request(`${h.base}/users/12/messages`, { body: { to: BUSINESS, text: 'x' } });
    assert.equal(badPhone.status, 400);
    assert.match(badPhone.body.error.message, /phone/);
    const badTo = await userSays(h, { to: 'nobody', text: 'x' });
    assert.equal(badTo.status, 400);
    assert.match(badTo.body.error.message, /`to`/);
    const two = await userSays(h, { text: 'x', location: { latitude: 1, longitude: 2 } });
    assert.equal(two.status, 400);
    const badLocation = await userSays(h, { location: { latitude: 91, longitude: 2 } });
    assert.match(badLocation.body.error.message, /location\.latitude/);
  });
});

describe('what a phone received', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await openWindow(h);
  });
  after(() => h.close());

  test('messages are listed oldest first with a human rendering and a status moving to read', async () => {
    const sent = [
      { type: 'text', text: { body: 'Your order shipped' } },
      { type: 'image', image: { link: 'https://cdn.example.com/a.jpg', caption: 'Receipt' } },
      {
        type: 'location',
        location: { latitude: 37.4847, longitude: -122.1473, name: 'HQ', address: '1 Hacker Way' },
      },
      {
        type: 'contacts',
        contacts: [
          { name: { formatted_name: 'Jane Doe' }, phones: [{ phone: '+1 555 0100', type: 'CELL' }] },
        ],
      },
      {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: 'Confirm?' },
          action: {
            buttons: [
              { type: 'reply', reply: { id: 'y', title: 'Yes' } },
              { type: 'reply', reply: { id: 'n', title: 'No' } },
            ],
          },
        },
      },
      {
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: 'Pick one' },
          action: {
            button: 'Menu',
            sections: [{ title: 'Mains', rows: [{ id: 'b', title: 'Burger', description: 'Beef' }] }],
          },
        },
      },
    ];
    const ids: string[] = [];
    for (const message of sent) ids.push((await graphSend(h, message)).body.messages[0].id);

    const phone = await request(`${h.base}/users/${USER}/messages?from=${BUSINESS}`);
    assert.equal(phone.status, 200);
    const messages = phone.body.messages;
    assert.deepEqual(
      messages.map((m: any) => m.id),
      ids,
    );
    for (const [i, m] of messages.entries()) {
      assert.equal(m.from, BUSINESS);
      assert.equal(m.type, sent[i]!.type);
      assert.deepEqual(m.content, sent[i]);
      assert.ok(!Number.isNaN(Date.parse(m.timestamp)));
    }
    const rendered = messages.map((m: any) => m.rendered);
    assert.equal(rendered[0], 'Your order shipped');
    assert.match(rendered[1], /https:\/\/cdn\.example\.com\/a\.jpg/);
    assert.match(rendered[1], /Receipt/);
    assert.equal(rendered[2], '📍 HQ, 1 Hacker Way (37.4847, -122.1473)');
    assert.match(rendered[3], /Jane Doe.*\+1 555 0100/);
    assert.match(rendered[4], /Confirm\?[\s\S]*\[Yes\] \[No\]/);
    assert.equal(messages[4].interactive_type, 'button');
    assert.match(rendered[5], /Pick one[\s\S]*Menu[\s\S]*Burger — Beef/);
    assert.equal(messages[5].interactive_type, 'list');

    await eventually(async () => {
      const again = await request(`${h.base}/users/${USER}/messages`);
      return again.body.messages.every((m: any) => m.status === 'read') || undefined;
    });
  });

  test('the from filter keeps only one business', async () => {
    const r = await request(`${h.base}/users/${USER}/messages?from=16505551234`);
    assert.deepEqual(r.body.messages, []);
  });
});

describe('a phone that does not read', () => {
  test('status stops at delivered without autoRead', async (t) => {
    const h = await startHarness({ autoRead: false });
    t.after(() => h.close());
    await openWindow(h);
    const id = (await graphSend(h, { type: 'text', text: { body: 'unread' } })).body.messages[0].id;
    await eventually(() =>
      h.receiver.received.some((x) => x.body.includes(id) && x.body.includes('"delivered"')),
    );
    await new Promise((r) => setTimeout(r, 80));
    const phone = await request(`${h.base}/users/${USER}/messages`);
    assert.equal(phone.body.messages.at(-1).status, 'delivered');
    assert.ok(!h.receiver.received.some((x) => x.body.includes(id) && x.body.includes('"read"')));
  });
});
