/**
 * A virtual user reacting to a business's message (`reaction: {messageId, emoji}` on the phone's message
 * route): the network posts Meta's inbound reaction, an empty emoji takes it back, and every body that does
 * not name a message the business sent this phone, or an emoji that is not one, is a 400 naming its field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BUSINESS,
  graphSend,
  type Harness,
  inboundFor,
  inboundHooks,
  openWindow,
  request,
  startHarness,
  TOKEN,
  USER,
  userSays,
  VERSION,
} from './harness.ts';

const OTHER_BUSINESS = '14155550199';
const LATE_USER = '254712300055';

describe('a virtual user reacts to a business message', () => {
  let h: Harness;
  /** A text the business sent the user. */
  let sent: string;

  before(async () => {
    h = await startHarness();
    await openWindow(h);
    const r = await graphSend(h, { type: 'text', text: { body: 'Your order left the shop.' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    sent = r.body.messages[0].id;
  });
  after(() => h.close());

  test('a reaction becomes Meta inbound reaction message, with the usual contacts and user id', async () => {
    const r = await userSays(h, { reaction: { messageId: sent, emoji: '👍🏽' }, profileName: 'Amina' });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.match(r.body.id, /^wamid\./);
    const value = await inboundFor(h, r.body.id);
    const userId = value.contacts[0].user_id;
    assert.deepEqual(value.contacts, [{ profile: { name: 'Amina' }, wa_id: USER, user_id: userId }]);
    assert.equal(value.messages.length, 1);
    const [m] = value.messages;
    assert.deepEqual(Object.keys(m).sort(), ['from', 'from_user_id', 'id', 'reaction', 'timestamp', 'type']);
    assert.equal(m.from, USER);
    assert.equal(m.from_user_id, userId);
    assert.equal(m.id, r.body.id);
    assert.match(m.timestamp, /^\d{10}$/);
    assert.equal(m.type, 'reaction');
    assert.deepEqual(m.reaction, { message_id: sent, emoji: '👍🏽' });
  });

  test('an empty emoji takes the reaction back', async () => {
    const r = await userSays(h, { reaction: { messageId: sent, emoji: '' } });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const [m] = (await inboundFor(h, r.body.id)).messages;
    assert.equal(m.type, 'reaction');
    assert.deepEqual(m.reaction, { message_id: sent, emoji: '' });
  });

  test("the phone keeps the user's reactions, rendered as the business's are", async () => {
    const chat = await request(`${h.base}/users/${USER}/chat?with=%2B${BUSINESS}`);
    const mine = chat.body.messages.filter((m: any) => m.direction === 'out' && m.type === 'reaction');
    assert.deepEqual(
      mine.map((m: any) => [m.rendered, m.content]),
      [
        ['👍🏽 (reaction)', { type: 'reaction', reaction: { message_id: sent, emoji: '👍🏽' } }],
        ['(reaction removed)', { type: 'reaction', reaction: { message_id: sent, emoji: '' } }],
      ],
    );
  });

  test('each body that is not a reaction to a message of this business is refused, naming the field', async () => {
    const [first] = (await request(`${h.base}/users/${USER}/chat?with=%2B${BUSINESS}`)).body.messages;
    assert.equal(first.direction, 'out');
    // The business's reaction to the user's message: a message the phone received, but no bubble to react to.
    const theirs = await graphSend(h, { type: 'reaction', reaction: { message_id: first.id, emoji: '❤️' } });
    assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
    // Another business number's message reached the phone too (failed: that chat has no open window).
    const fromOther = await request(`${h.base}/${VERSION}/${OTHER_BUSINESS}/messages`, {
      body: { messaging_product: 'whatsapp', to: USER, type: 'text', text: { body: 'Another shop' } },
      token: TOKEN,
    });
    assert.equal(fromOther.status, 200, JSON.stringify(fromOther.body));
    const noMessage = /^`reaction\.messageId`: this phone received no message from 14155550100 with id/;
    const cases: [unknown, RegExp][] = [
      ['👍', /^`reaction` must be an object: \{messageId, emoji\}/],
      [{ emoji: '👍' }, /^`reaction\.messageId` must be the id of a message/],
      [{ messageId: '', emoji: '👍' }, /^`reaction\.messageId` must be the id of a message/],
      [{ messageId: 'wamid.NOPE', emoji: '👍' }, noMessage],
      [{ messageId: first.id, emoji: '👍' }, noMessage],
      [{ messageId: fromOther.body.messages[0].id, emoji: '👍' }, noMessage],
      [{ messageId: theirs.body.messages[0].id, emoji: '👍' }, /^`reaction\.messageId`: .* is a reaction/],
      [{ messageId: sent }, /^`reaction\.emoji` must be a single emoji, or empty/],
      [{ messageId: sent, emoji: 'ok' }, /^`reaction\.emoji` must be a single emoji/],
      [{ messageId: sent, emoji: '👍👍' }, /^`reaction\.emoji` must be a single emoji/],
      [{ messageId: sent, emoji: 7 }, /^`reaction\.emoji` must be a single emoji/],
    ];
    const hooksBefore = inboundHooks(h).length;
    for (const [reaction, expected] of cases) {
      const r = await userSays(h, { reaction });
      assert.equal(r.status, 400, `${JSON.stringify(reaction)}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error.message, expected, JSON.stringify(reaction));
    }
    const both = await userSays(h, { text: 'hi', reaction: { messageId: sent, emoji: '👍' } });
    assert.equal(both.status, 400);
    assert.match(both.body.error.message, /exactly one of .*`reaction`/);
    assert.equal(inboundHooks(h).length, hooksBefore, 'a refused reaction posts nothing');
  });

  test('a message that never reached the phone takes no reaction', async () => {
    // This user never wrote: the business's text fails outside the 24-hour window.
    const failed = await graphSend(h, { type: 'text', text: { body: 'Too late' } }, LATE_USER);
    assert.equal(failed.status, 200, JSON.stringify(failed.body));
    const r = await userSays(
      h,
      { reaction: { messageId: failed.body.messages[0].id, emoji: '👍' } },
      LATE_USER,
    );
    assert.equal(r.status, 400);
    assert.match(r.body.error.message, /^`reaction\.messageId`: message ".*" never reached this phone/);
  });
});
