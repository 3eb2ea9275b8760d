/**
 * What a hostile or careless client sends: every field of a valid body, at every depth, replaced by wrong
 * types, null, empty and huge values, control characters and prototype keys. Each result must be a refusal
 * naming a field or a well-formed message; nothing may throw (docs/contract.md §2: never a 500 for bad input).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendOperations } from '../../../src/domain/messages/index.ts';
import type { SendOperation } from '../../../src/domain/messages/send-operation.ts';
import { check, common } from './check.ts';

const valid: Record<string, Record<string, unknown>> = {
  text: { message: 'Hello https://example.com' },
  media: {
    mediaType: 'document',
    mediaUrl: 'https://example.com/a.pdf',
    caption: 'Invoice',
    filename: 'a.pdf',
  },
  location: { latitude: '-1.2921', longtitude: 36.8219, name: 'Office', address: 'Nairobi' },
  request_location: { text: 'Where are you?' },
  contact: {
    name: { formattedName: 'Jane Doe', firstName: 'Jane', lastName: 'Doe' },
    phones: [{ phone: '+254700000000', type: 'mobile', waId: '254700000000' }],
  },
  buttons: {
    message: 'Pick',
    text: 'Pick',
    buttons: [
      { id: 'a', title: 'A' },
      { id: 'b', title: 'B' },
    ],
  },
  list: {
    headerText: 'Menu',
    body: 'Pick',
    buttonText: 'Open',
    buttons: [
      { sectionTitle: 'One', sectionItems: [{ id: 'a', title: 'A', description: 'first' }] },
      { sectionTitle: 'Two', sectionItems: [{ id: 'b', title: 'B' }] },
    ],
  },
  flow: { text: 'Sign up', flowId: '42', flowCta: 'Start', screen: 'WELCOME', data: { service: 'x' } },
  template: {
    template: {
      name: 'order_update',
      language: 'en_US',
      components: {
        header: { type: 'DOCUMENT', mediaUrl: 'https://example.com/a.pdf', filename: 'a.pdf' },
        body: { placeholders: ['Jane', '42'] },
        buttons: [{ index: 0, parameter: 'track/42' }],
      },
    },
  },
  reaction: { replyTo: 'wamid.HBgM', emoji: '👍' },
  cta_url: {
    body: 'Follow your parcel',
    buttonText: 'Track',
    url: 'https://example.com/t',
    header: 'Your order',
    footer: 'Acme',
    replyTo: 'wamid.HBgM',
  },
};

const HOSTILE: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  JSON.parse('1e999'),
  '',
  ' ',
  '\u0000',
  '\u202e',
  '😀',
  'x'.repeat(100_000),
  [],
  [null],
  [{}],
  {},
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { constructor: 'x' },
];

type Path = (string | number)[];

/** Every path to a value inside `value`, objects and arrays included. */
function paths(value: unknown, prefix: Path = []): Path[] {
  if (value === null || typeof value !== 'object') return [prefix];
  const children = Object.entries(value).flatMap(([k, v]) =>
    paths(v, [...prefix, Array.isArray(value) ? Number(k) : k]),
  );
  return prefix.length ? [prefix, ...children] : children;
}

function replaced(body: unknown, path: Path, replacement: unknown): unknown {
  const copy = structuredClone(body) as any;
  let target = copy;
  for (const key of path.slice(0, -1)) target = target[key];
  target[path.at(-1)!] = replacement;
  return copy;
}

function assertWellBehaved(op: SendOperation<any, any>, body: unknown, label: string): void {
  const result = check(op, body);
  if (!result.ok) {
    assert.match(result.message, /`[^`]+`/, `${label}: the refusal names no field: ${result.message}`);
    assert.ok(result.message.length < 300, `${label}: the refusal is not a sentence`);
    if (result.field)
      assert.ok(result.message.includes(`\`${result.field}\``), `${label}: ${result.message}`);
    return;
  }
  const context = {
    flow: { networkFlowId: '1', mode: 'published' as const },
    template: { networkName: 'order_update' },
    replyTo: 'wamid.HBgM',
  };
  const cloud = op.toCloud(result.value, context);
  assert.equal(typeof cloud.type, 'string', label);
  assert.ok(JSON.stringify(cloud).length > 0, label);
  assert.equal(({} as any).polluted, undefined, `${label}: the prototype was polluted`);
}

describe('hostile input', () => {
  for (const op of sendOperations) {
    test(`${op.kind}: every field replaced by hostile values is refused by name or sent well-formed`, () => {
      const body = { ...common, ...valid[op.kind] };
      assert.equal(check(op, body).ok, true, 'the valid body is valid');
      for (const path of paths(body)) {
        for (const value of HOSTILE) {
          assertWellBehaved(
            op,
            replaced(body, path, value),
            `${op.kind} ${path.join('.')}=${JSON.stringify(value)?.slice(0, 30)}`,
          );
        }
      }
    });

    test(`${op.kind}: unknown and prototype keys at the top are refused by name`, () => {
      for (const key of ['__proto__', 'constructor', 'toString', 'MESSAGEID', 'messageid']) {
        const body = JSON.parse(
          JSON.stringify({ ...common, ...valid[op.kind] }).replace(/^\{/, `{"${key}":1,`),
        );
        const result = check(op, body);
        assert.deepEqual(result, { ok: false, message: `\`${key}\` is not a known field` }, key);
      }
    });
  }
});
