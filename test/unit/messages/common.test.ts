/** The common fields and the registry of the eight operations (docs/contract.md §2, §3). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendOperations } from '../../../src/domain/messages/index.ts';
import { sendText } from '../../../src/domain/messages/send-text.ts';
import { sendPaths } from '../../../src/http/routes/messages/send-paths.ts';
import { check, common, x } from './check.ts';

const text = (body: Record<string, unknown>) => check(sendText, { ...common, message: 'hi', ...body });

describe('sendOperations', () => {
  test('holds the eight operations in the order of docs/contract.md, the template send (docs/contract.md §3), then the sends added since', () => {
    assert.deepEqual(
      sendOperations.map((op) => [op.kind, sendPaths[op.kind]]),
      [
        ['text', '/api/v1/msg/message/text'],
        ['media', '/api/v1/msg/media'],
        ['location', '/api/v1/msg/location'],
        ['request_location', '/api/v1/msg/request_location'],
        ['contact', '/api/v1/msg/contact'],
        ['buttons', '/api/v1/msg/interactive/buttons'],
        ['list', '/api/v1/msg/interactive/list'],
        ['flow', '/api/v1/msg/interactive/flows'],
        ['template', '/api/v1/msg/template'],
        ['reaction', '/api/v1/msg/reaction'],
        ['cta_url', '/api/v1/msg/interactive/cta_url'],
      ],
    );
  });

  test('every body schema requires the common fields and refuses unknown ones', () => {
    for (const op of sendOperations) {
      const schema = op.bodySchema as any;
      assert.equal(schema.type, 'object', op.kind);
      assert.equal(schema.additionalProperties, false, op.kind);
      for (const field of ['messageId', 'from', 'to']) assert.ok(schema.required.includes(field), op.kind);
      assert.ok(op.summary.length > 0 && !op.summary.includes('\n'), op.kind);
    }
  });
});

describe('common fields', () => {
  test('messageId: 1 to 128 characters', () => {
    assert.equal(text({ messageId: x(128) }).ok, true);
    assert.deepEqual(text({ messageId: x(129) }), {
      ok: false,
      message: '`messageId` must be at most 128 characters',
    });
    assert.deepEqual(text({ messageId: '' }), { ok: false, message: '`messageId` must not be empty' });
    assert.deepEqual(text({ messageId: 7 }), { ok: false, message: '`messageId` must be a string' });
  });

  test('from: at most 32 characters; to: at most 160 (a business-scoped user id is longer than a number)', () => {
    for (const [field, max] of [
      ['from', 32],
      ['to', 160],
    ] as const) {
      assert.equal(text({ [field]: x(max, '1') }).ok, true);
      assert.deepEqual(text({ [field]: x(max + 1, '1') }), {
        ok: false,
        message: `\`${field}\` must be at most ${max} characters`,
      });
      assert.deepEqual(text({ [field]: '' }), { ok: false, message: `\`${field}\` must not be empty` });
      assert.deepEqual(text({ [field]: 254712345678 }), {
        ok: false,
        message: `\`${field}\` must be a string`,
      });
    }
  });

  test('each common field is required', () => {
    for (const field of ['messageId', 'from', 'to']) {
      const body: Record<string, unknown> = { ...common, message: 'hi' };
      delete body[field];
      assert.deepEqual(check(sendText, body), { ok: false, message: `\`${field}\` is required` });
    }
  });

  test('a body that is not an object, or has unknown fields, is refused by name', () => {
    for (const body of [null, [], 'text', 42]) {
      assert.deepEqual(check(sendText, body), { ok: false, message: '`body` must be an object' });
    }
    assert.deepEqual(text({ colour: 'red' }), { ok: false, message: '`colour` is not a known field' });
  });

  test('the common fields stay out of the normalized content', () => {
    assert.deepEqual(text({}), { ok: true, value: { message: 'hi' } });
  });
});
