/** The rules of the reaction and call-to-action URL sends (src/domain/messages/), before any network call. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sendCtaUrl } from '../../../src/domain/messages/send-cta-url.ts';
import { sendReaction } from '../../../src/domain/messages/send-reaction.ts';

const common = { messageId: 'm-1', from: '+14155550100', to: '+254712345678' };

test('a reaction is one emoji as a person sees one, or empty; it needs the message it is put on', () => {
  for (const emoji of ['👍', '👍🏽', '🇰🇪', '👨‍👩‍👧', '❤️', '']) {
    const r = sendReaction.normalize({ ...common, replyTo: 'wamid.X', emoji });
    assert.deepEqual(r, { ok: true, value: { emoji } }, emoji);
  }
  for (const emoji of ['ok', '👍👍', 'a👍', ' 👍']) {
    const r = sendReaction.normalize({ ...common, replyTo: 'wamid.X', emoji });
    assert.equal(r.ok, false, emoji);
    assert.equal(!r.ok && r.field, 'emoji');
  }
  const without = sendReaction.normalize({ ...common, emoji: '👍' });
  assert.deepEqual(without, {
    ok: false,
    field: 'replyTo',
    message: '`replyTo` is required: the message to react to',
  });
  assert.deepEqual(sendReaction.toCloud({ emoji: '👍' }, { replyTo: 'wamid.X' }), {
    type: 'reaction',
    reaction: { message_id: 'wamid.X', emoji: '👍' },
  });
});

test('a call-to-action button opens an https link; header and footer only when given', () => {
  const body = {
    ...common,
    body: 'Follow your parcel',
    buttonText: 'Track',
    url: 'https://example.com/t?id=1',
  };
  const checked = sendCtaUrl.normalize(body);
  assert.ok(checked.ok);
  assert.deepEqual(sendCtaUrl.toCloud(checked.value, {}), {
    type: 'interactive',
    interactive: {
      type: 'cta_url',
      body: { text: 'Follow your parcel' },
      action: { name: 'cta_url', parameters: { display_text: 'Track', url: 'https://example.com/t?id=1' } },
    },
  });
  for (const url of ['http://example.com', 'ftp://example.com', 'example.com', 'https://']) {
    const r = sendCtaUrl.normalize({ ...body, url });
    assert.deepEqual(r.ok ? null : r.field, 'url', url);
  }
});
