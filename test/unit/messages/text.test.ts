/** Operation 1, free-form text (docs/contract.md §3, docs/cloud-api.md §1.3 text). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendText } from '../../../src/domain/messages/send-text.ts';
import { accepted, refused, x } from './check.ts';

describe('send text', () => {
  test('message: 1 to 4096 characters', () => {
    assert.deepEqual(accepted(sendText, { message: x(4096) }), { message: x(4096) });
    assert.equal(refused(sendText, { message: x(4097) }), '`message` must be at most 4096 characters');
    assert.equal(refused(sendText, { message: '' }), '`message` must not be empty');
    assert.equal(refused(sendText, {}), '`message` is required');
    assert.equal(refused(sendText, { message: ['hi'] }), '`message` must be a string');
    assert.equal(refused(sendText, { message: null }), '`message` must be a string');
  });

  test('characters are code points: 4096 emoji fit, 4097 do not', () => {
    assert.equal(accepted(sendText, { message: x(4096, '😀') }).message.length, 8192);
    assert.equal(refused(sendText, { message: x(4097, '😀') }), '`message` must be at most 4096 characters');
  });

  test('toCloud asks for a link preview only when there is a link', () => {
    assert.deepEqual(sendText.toCloud({ message: 'See https://example.com/a' }, {}), {
      type: 'text',
      text: { body: 'See https://example.com/a', preview_url: true },
    });
    assert.deepEqual(sendText.toCloud({ message: 'HTTP://EXAMPLE.COM' }, {}), {
      type: 'text',
      text: { body: 'HTTP://EXAMPLE.COM', preview_url: true },
    });
    for (const message of ['Hello', 'the https:// scheme', 'ftp://example.com', 'example.com']) {
      assert.deepEqual(sendText.toCloud({ message }, {}), {
        type: 'text',
        text: { body: message, preview_url: false },
      });
    }
  });
});
