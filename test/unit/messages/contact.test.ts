/** Operation 5, contact card (docs/contract.md §3, docs/cloud-api.md §1.3 contacts). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendContact } from '../../../src/domain/messages/send-contact.ts';
import { accepted, refused, x } from './check.ts';

const name = { formattedName: 'Jane Doe' };
const phones = [{ phone: '+254700000000' }];

describe('send contact', () => {
  test('name.formattedName: required, 1 to 1000 characters', () => {
    assert.equal(
      accepted(sendContact, { name: { formattedName: x(1000) }, phones }).name.formattedName,
      x(1000),
    );
    assert.equal(
      refused(sendContact, { name: { formattedName: x(1001) }, phones }),
      '`name.formattedName` must be at most 1000 characters',
    );
    assert.equal(
      refused(sendContact, { name: { formattedName: '' }, phones }),
      '`name.formattedName` must not be empty',
    );
    assert.equal(refused(sendContact, { name: {}, phones }), '`name.formattedName` is required');
    assert.equal(refused(sendContact, { phones }), '`name` is required');
    assert.equal(refused(sendContact, { name: 'Jane', phones }), '`name` must be an object');
    assert.equal(refused(sendContact, { name: [name], phones }), '`name` must be an object');
    assert.equal(
      refused(sendContact, { name: { ...name, middleName: 'Q' }, phones }),
      '`name.middleName` is not a known field',
    );
  });

  test('firstName and lastName are optional parts of the name', () => {
    const content = accepted(sendContact, { name: { ...name, firstName: 'Jane', lastName: 'Doe' }, phones });
    assert.deepEqual(content.name, { formattedName: 'Jane Doe', firstName: 'Jane', lastName: 'Doe' });
    assert.equal(
      refused(sendContact, { name: { ...name, lastName: x(1001) }, phones }),
      '`name.lastName` must be at most 1000 characters',
    );
  });

  test('phones: 1 to 20 items, phone 1 to 64 characters', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => ({ phone: `+1555010${i}` }));
    assert.equal(accepted(sendContact, { name, phones: many(20) }).phones.length, 20);
    assert.equal(refused(sendContact, { name, phones: many(21) }), '`phones` must have at most 20 items');
    assert.equal(refused(sendContact, { name, phones: [] }), '`phones` must have at least 1 item');
    assert.equal(refused(sendContact, { name }), '`phones` is required');
    assert.equal(refused(sendContact, { name, phones: { phone: '+1' } }), '`phones` must be an array');
    assert.equal(refused(sendContact, { name, phones: ['+1555'] }), '`phones[0]` must be an object');
    assert.equal(
      accepted(sendContact, { name, phones: [{ phone: x(64, '1') }] }).phones[0].phone,
      x(64, '1'),
    );
    assert.equal(
      refused(sendContact, { name, phones: [{ phone: x(65, '1') }] }),
      '`phones[0].phone` must be at most 64 characters',
    );
    assert.equal(refused(sendContact, { name, phones: [{ type: 'cell' }] }), '`phones[0].phone` is required');
    assert.equal(
      refused(sendContact, { name, phones: [{ phone: '+1', kind: 'cell' }] }),
      '`phones[0].kind` is not a known field',
    );
  });

  test("phone kinds: the contract's words in the network's spelling, others upper-cased", () => {
    const kinds = [
      'cell',
      'Mobile',
      'MAIN',
      'iphone',
      'home',
      'Work',
      'fax',
      'constructor',
      '__proto__',
      'toString',
    ];
    const content = accepted(sendContact, { name, phones: kinds.map((type) => ({ phone: '+1', type })) });
    assert.deepEqual(
      content.phones.map((p: { type: string }) => p.type),
      ['CELL', 'CELL', 'MAIN', 'IPHONE', 'HOME', 'WORK', 'FAX', 'CONSTRUCTOR', '__PROTO__', 'TOSTRING'],
    );
  });

  test('toCloud: one card in the network spelling, wa_id only when given', () => {
    const content = accepted(sendContact, {
      name: { formattedName: 'Jane Doe', firstName: 'Jane', lastName: 'Doe' },
      phones: [{ phone: '+1 555 0100', type: 'mobile', waId: '15550100' }, { phone: '+1 555 0101' }],
    });
    assert.deepEqual(sendContact.toCloud(content, {}), {
      type: 'contacts',
      contacts: [
        {
          name: { formatted_name: 'Jane Doe', first_name: 'Jane', last_name: 'Doe' },
          phones: [{ phone: '+1 555 0100', type: 'CELL', wa_id: '15550100' }, { phone: '+1 555 0101' }],
        },
      ],
    });
  });
});
