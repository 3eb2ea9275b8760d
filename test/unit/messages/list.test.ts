/** Operation 7, list menu (docs/contract.md §3, docs/cloud-api.md §1.3 and §1.5). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendList } from '../../../src/domain/messages/send-list.ts';
import { accepted, refused, x } from './check.ts';

const rows = (n: number, prefix = 'r') =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }));
const sections = (...sizes: number[]) =>
  sizes.map((n, s) => ({ sectionTitle: `Section ${s}`, sectionItems: rows(n, `s${s}r`) }));
const one = [{ sectionItems: rows(1) }];
const row = (r: Record<string, unknown>) => ({
  body: 'Pick',
  buttons: [{ sectionItems: [{ id: 'a', title: 'A', ...r }] }],
});

describe('send list', () => {
  test('body text as message or body, 1 to 1024 characters', () => {
    assert.equal(accepted(sendList, { message: x(1024), buttons: one }).body, x(1024));
    assert.equal(accepted(sendList, { body: x(1024), buttons: one }).body, x(1024));
    assert.equal(
      refused(sendList, { message: x(1025), buttons: one }),
      '`message` must be at most 1024 characters',
    );
    assert.equal(
      refused(sendList, { body: x(1025), buttons: one }),
      '`body` must be at most 1024 characters',
    );
    assert.equal(refused(sendList, { body: '', buttons: one }), '`body` must not be empty');
  });

  test('message and body: the same value is fine, different values name `body`, neither names `message`', () => {
    assert.equal(accepted(sendList, { message: 'Pick', body: 'Pick', buttons: one }).body, 'Pick');
    assert.equal(
      refused(sendList, { message: 'Pick', body: 'Other', buttons: one }),
      '`message` and `body` are two spellings of one field; send one, or the same value in both',
    );
    assert.equal(refused(sendList, { buttons: one }), '`message` (or `body`, the same field) is required');
  });

  test('headerText: optional, at most 60 characters', () => {
    assert.equal(accepted(sendList, { body: 'Pick', headerText: x(60), buttons: one }).headerText, x(60));
    assert.equal(
      refused(sendList, { body: 'Pick', headerText: x(61), buttons: one }),
      '`headerText` must be at most 60 characters',
    );
    assert.equal('headerText' in accepted(sendList, { body: 'Pick', headerText: '', buttons: one }), false);
  });

  test('buttonText: optional, 1 to 20 characters, "Choose" by default', () => {
    assert.equal(accepted(sendList, { body: 'Pick', buttons: one }).buttonText, 'Choose');
    assert.equal(accepted(sendList, { body: 'Pick', buttonText: x(20), buttons: one }).buttonText, x(20));
    assert.equal(
      refused(sendList, { body: 'Pick', buttonText: x(21), buttons: one }),
      '`buttonText` must be at most 20 characters',
    );
    assert.equal(
      refused(sendList, { body: 'Pick', buttonText: '', buttons: one }),
      '`buttonText` must not be empty',
    );
  });

  test('sections: 1 to 10', () => {
    assert.equal(
      accepted(sendList, { body: 'Pick', buttons: sections(...Array(10).fill(1)) }).sections.length,
      10,
    );
    assert.equal(
      refused(sendList, { body: 'Pick', buttons: sections(...Array(11).fill(1)) }),
      '`buttons` must have at most 10 items',
    );
    assert.equal(refused(sendList, { body: 'Pick', buttons: [] }), '`buttons` must have at least 1 item');
    assert.equal(refused(sendList, { body: 'Pick' }), '`buttons` is required');
    assert.equal(
      refused(sendList, { body: 'Pick', buttons: rows(1) }),
      '`buttons[0].sectionItems` is required',
    );
  });

  test('rows: at least 1 per section, at most 10 in total', () => {
    assert.equal(
      accepted(sendList, { body: 'Pick', buttons: sections(10) }).sections[0].sectionItems.length,
      10,
    );
    assert.equal(accepted(sendList, { body: 'Pick', buttons: sections(3, 3, 4) }).sections.length, 3);
    assert.equal(
      refused(sendList, { body: 'Pick', buttons: sections(11) }),
      '`buttons[0].sectionItems` must have at most 10 items',
    );
    assert.equal(
      refused(sendList, { body: 'Pick', buttons: sections(3, 3, 5) }),
      '`buttons` holds 11 rows in total; a list allows at most 10 across all sections',
    );
    assert.equal(
      refused(sendList, { body: 'Pick', buttons: [{ sectionItems: [] }] }),
      '`buttons[0].sectionItems` must have at least 1 item',
    );
    assert.equal(refused(sendList, { body: 'Pick', buttons: [{}] }), '`buttons[0].sectionItems` is required');
  });

  test('sectionTitle: at most 24 characters, required when there is more than one section', () => {
    const titled = (sectionTitle: string) => ({
      body: 'Pick',
      buttons: [{ sectionTitle, sectionItems: rows(1) }],
    });
    assert.equal(accepted(sendList, titled(x(24))).sections[0].sectionTitle, x(24));
    assert.equal(refused(sendList, titled(x(25))), '`buttons[0].sectionTitle` must be at most 24 characters');
    assert.equal('sectionTitle' in accepted(sendList, { body: 'Pick', buttons: one }).sections[0], false);
    const two = sections(1, 1);
    for (const missing of [
      { sectionItems: two[1]!.sectionItems },
      { ...two[1], sectionTitle: '' },
      { ...two[1], sectionTitle: '  ' },
    ]) {
      assert.equal(
        refused(sendList, { body: 'Pick', buttons: [two[0], missing] }),
        '`buttons[1].sectionTitle` is required when the list has more than one section',
      );
    }
  });

  test('row id: 1 to 200 characters, unique across the whole list', () => {
    assert.equal(accepted(sendList, row({ id: x(200) })).sections[0].sectionItems[0].id, x(200));
    assert.equal(
      refused(sendList, row({ id: x(201) })),
      '`buttons[0].sectionItems[0].id` must be at most 200 characters',
    );
    assert.equal(refused(sendList, row({ id: '' })), '`buttons[0].sectionItems[0].id` must not be empty');
    assert.equal(
      refused(sendList, {
        body: 'Pick',
        buttons: [
          { sectionTitle: 'A', sectionItems: rows(2) },
          { sectionTitle: 'B', sectionItems: rows(2, 'q').concat(rows(1)) },
        ],
      }),
      '`buttons[1].sectionItems[2].id` repeats `buttons[0].sectionItems[0].id` (a duplicate); row ids must be unique across the list',
    );
  });

  test('row title 1 to 24 characters, description at most 72', () => {
    assert.equal(accepted(sendList, row({ title: x(24) })).sections[0].sectionItems[0].title, x(24));
    assert.equal(
      refused(sendList, row({ title: x(25) })),
      '`buttons[0].sectionItems[0].title` must be at most 24 characters',
    );
    assert.equal(
      refused(sendList, row({ title: '' })),
      '`buttons[0].sectionItems[0].title` must not be empty',
    );
    assert.equal(
      accepted(sendList, row({ description: x(72) })).sections[0].sectionItems[0].description,
      x(72),
    );
    assert.equal(
      refused(sendList, row({ description: x(73) })),
      '`buttons[0].sectionItems[0].description` must be at most 72 characters',
    );
    assert.equal(
      refused(sendList, row({ payload: 'p' })),
      '`buttons[0].sectionItems[0].payload` is not a known field',
    );
  });

  test('toCloud: interactive list with a text header when given', () => {
    const content = accepted(sendList, {
      headerText: 'Menu',
      body: 'Pick one',
      buttonText: 'View options',
      buttons: [
        {
          sectionTitle: 'Mains',
          sectionItems: [{ id: 'burger', title: 'Burger', description: 'Beef, 200 g' }],
        },
        { sectionTitle: 'Drinks', sectionItems: [{ id: 'tea', title: 'Tea' }] },
      ],
    });
    assert.deepEqual(sendList.toCloud(content, {}), {
      type: 'interactive',
      interactive: {
        type: 'list',
        header: { type: 'text', text: 'Menu' },
        body: { text: 'Pick one' },
        action: {
          button: 'View options',
          sections: [
            { title: 'Mains', rows: [{ id: 'burger', title: 'Burger', description: 'Beef, 200 g' }] },
            { title: 'Drinks', rows: [{ id: 'tea', title: 'Tea' }] },
          ],
        },
      },
    });
    const plain = accepted(sendList, { message: 'Pick', buttons: one });
    assert.deepEqual(sendList.toCloud(plain, {}), {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Pick' },
        action: { button: 'Choose', sections: [{ rows: [{ id: 'r0', title: 'Row 0' }] }] },
      },
    });
  });
});
