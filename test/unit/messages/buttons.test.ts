/** Operation 6, quick-reply buttons (docs/contract.md §3, docs/cloud-api.md §1.3 and §1.5). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendButtons } from '../../../src/domain/messages/send-buttons.ts';
import { accepted, refused, x } from './check.ts';

const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `Button ${i}` }));
const one = buttons(1);

describe('send buttons', () => {
  test('body text as message or text, 1 to 1024 characters', () => {
    assert.equal(accepted(sendButtons, { message: x(1024), buttons: one }).text, x(1024));
    assert.equal(accepted(sendButtons, { text: x(1024), buttons: one }).text, x(1024));
    assert.equal(
      refused(sendButtons, { message: x(1025), buttons: one }),
      '`message` must be at most 1024 characters',
    );
    assert.equal(
      refused(sendButtons, { text: x(1025), buttons: one }),
      '`text` must be at most 1024 characters',
    );
    assert.equal(refused(sendButtons, { message: '', buttons: one }), '`message` must not be empty');
  });

  test('message and text: the same value is fine, different values name `text`, neither names `message`', () => {
    assert.equal(accepted(sendButtons, { message: 'Pick', text: 'Pick', buttons: one }).text, 'Pick');
    assert.equal(
      refused(sendButtons, { message: 'Pick', text: 'Choose', buttons: one }),
      '`message` and `text` are two spellings of one field; send one, or the same value in both',
    );
    assert.equal(refused(sendButtons, { buttons: one }), '`message` (or `text`, the same field) is required');
  });

  test('buttons: 1 to 3', () => {
    assert.equal(accepted(sendButtons, { message: 'Pick', buttons: buttons(3) }).buttons.length, 3);
    assert.equal(
      refused(sendButtons, { message: 'Pick', buttons: buttons(4) }),
      '`buttons` must have at most 3 items',
    );
    assert.equal(
      refused(sendButtons, { message: 'Pick', buttons: [] }),
      '`buttons` must have at least 1 item',
    );
    assert.equal(refused(sendButtons, { message: 'Pick' }), '`buttons` is required');
    assert.equal(refused(sendButtons, { message: 'Pick', buttons: one[0] }), '`buttons` must be an array');
    assert.equal(
      refused(sendButtons, { message: 'Pick', buttons: [null] }),
      '`buttons[0]` must be an object',
    );
  });

  test('button id: 1 to 256 characters, no surrounding whitespace', () => {
    const b = (id: string) => ({ message: 'Pick', buttons: [{ id, title: 'A' }] });
    assert.equal(accepted(sendButtons, b(x(256))).buttons[0].id, x(256));
    assert.equal(refused(sendButtons, b(x(257))), '`buttons[0].id` must be at most 256 characters');
    assert.equal(refused(sendButtons, b('')), '`buttons[0].id` must not be empty');
    for (const id of [' a', 'a ', '\ta', 'a\n', ' ']) {
      assert.equal(
        refused(sendButtons, b(id)),
        '`buttons[0].id` must not start or end with spaces',
        JSON.stringify(id),
      );
    }
    assert.equal(accepted(sendButtons, b('a b')).buttons[0].id, 'a b');
  });

  test('button title: 1 to 20 characters, not blank', () => {
    const b = (title: string) => ({ message: 'Pick', buttons: [{ id: 'a', title }] });
    assert.equal(accepted(sendButtons, b(x(20))).buttons[0].title, x(20));
    assert.equal(accepted(sendButtons, b(x(20, '👍'))).buttons[0].title, x(20, '👍'));
    assert.equal(refused(sendButtons, b(x(21))), '`buttons[0].title` must be at most 20 characters');
    assert.equal(refused(sendButtons, b('')), '`buttons[0].title` must not be empty');
    assert.equal(refused(sendButtons, b('   ')), '`buttons[0].title` must not be blank');
    assert.equal(
      refused(sendButtons, { message: 'Pick', buttons: [{ id: 'a' }] }),
      '`buttons[0].title` is required',
    );
    assert.equal(
      refused(sendButtons, { message: 'Pick', buttons: [{ id: 'a', title: 'A', payload: 'p' }] }),
      '`buttons[0].payload` is not a known field',
    );
  });

  test('ids and titles are unique; the refusal names the duplicate and the original', () => {
    const b = [
      { id: 'a', title: 'A' },
      { id: 'b', title: 'B' },
      { id: 'a', title: 'C' },
    ];
    assert.equal(
      refused(sendButtons, { message: 'Pick', buttons: b }),
      '`buttons[2].id` repeats `buttons[0].id` (a duplicate); each button needs its own id',
    );
    b[2] = { id: 'c', title: 'B' };
    assert.equal(
      refused(sendButtons, { message: 'Pick', buttons: b }),
      '`buttons[2].title` repeats `buttons[1].title` (a duplicate); each button needs its own title',
    );
    b[2] = { id: 'A', title: 'b' };
    assert.equal(accepted(sendButtons, { message: 'Pick', buttons: b }).buttons.length, 3);
  });

  test('toCloud: interactive button with reply buttons', () => {
    const content = accepted(sendButtons, {
      text: 'Confirm delivery?',
      buttons: [
        { id: 'yes', title: 'Yes' },
        { id: 'no', title: 'No' },
      ],
    });
    assert.deepEqual(sendButtons.toCloud(content, {}), {
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
  });
});
