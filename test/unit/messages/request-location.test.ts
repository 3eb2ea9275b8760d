/** Operation 4, location request (docs/contract.md §3, docs/cloud-api.md §1.3 location request). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendRequestLocation } from '../../../src/domain/messages/send-request-location.ts';
import { accepted, refused, x } from './check.ts';

describe('send location request', () => {
  test('text: 1 to 1024 characters', () => {
    assert.deepEqual(accepted(sendRequestLocation, { text: x(1024) }), { text: x(1024) });
    assert.equal(refused(sendRequestLocation, { text: x(1025) }), '`text` must be at most 1024 characters');
    assert.equal(refused(sendRequestLocation, { text: '' }), '`text` must not be empty');
    assert.equal(refused(sendRequestLocation, {}), '`text` is required');
    assert.equal(refused(sendRequestLocation, { text: { body: 'hi' } }), '`text` must be a string');
    assert.equal(
      refused(sendRequestLocation, { text: 'hi', message: 'hi' }),
      '`message` is not a known field',
    );
  });

  test('toCloud is an interactive location_request_message', () => {
    assert.deepEqual(sendRequestLocation.toCloud({ text: 'Where are you?' }, {}), {
      type: 'interactive',
      interactive: {
        type: 'location_request_message',
        body: { text: 'Where are you?' },
        action: { name: 'send_location' },
      },
    });
  });
});
