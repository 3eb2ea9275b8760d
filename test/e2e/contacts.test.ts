/**
 * Contacts through HTTP (docs/contacts.md): upsert one and many, list by tag a page at a time, read,
 * change, delete; a user who writes to the account's number becomes a contact named by their profile;
 * another account's contact is a 404; each bad input a 400 naming its field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addSimulatedNumber,
  call,
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';

const NUMBER = '14155550123';

describe('contacts', () => {
  let t: TestGateway;
  let a: TestAccount;
  let b: TestAccount;
  const api = (account: TestAccount, method: string, route: string, body?: unknown) =>
    call(t.url, method, route, { key: account.apiKey, ...(body !== undefined ? { body } : {}) });

  before(async () => {
    t = await startGateway();
    a = await createAccount(t, 'Contacts Co');
    b = await createAccount(t, 'Other Co');
    await addSimulatedNumber(t, a.accountId, NUMBER);
  });
  after(() => t.close());

  test('upsert one (201, then 200), many, list by tag with paging, read, change, delete', async () => {
    const made = await api(a, 'POST', '/api/v1/contacts', {
      phone: '+44 7911 123456',
      name: 'Amina',
      tags: ['vip'],
      attributes: { city: 'Nairobi' },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(Object.keys(made.body.data), [
      'id',
      'phone',
      'userId',
      'name',
      'tags',
      'attributes',
      'createdAt',
      'updatedAt',
    ]);
    assert.equal(made.body.data.phone, '+447911123456', 'normalized');
    const again = await api(a, 'POST', '/api/v1/contacts', {
      phone: '+447911123456',
      attributes: { plan: 'gold' },
    });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body.data.attributes, { city: 'Nairobi', plan: 'gold' });

    const many = await api(a, 'POST', '/api/v1/contacts', {
      contacts: [
        { phone: '+254712000101', tags: ['vip', 'kenya'] },
        { phone: '+254712000102', tags: ['kenya'] },
        { phone: '+447911123456', name: 'Amina O.' },
      ],
    });
    assert.equal(many.status, 200, JSON.stringify(many.body));
    assert.equal(many.body.data.created, 2);
    assert.equal(many.body.data.updated, 1);

    const vip = await api(a, 'GET', '/api/v1/contacts?tag=vip&per_page=1&page=2');
    assert.equal(vip.status, 200);
    assert.equal(vip.body.data.total, 2);
    assert.deepEqual(
      vip.body.data.contacts.map((c: { phone: string }) => c.phone),
      ['+254712000101'],
    );
    const id = made.body.data.id;
    assert.equal((await api(a, 'GET', `/api/v1/contacts/${id}`)).body.data.name, 'Amina O.');
    const patched = await api(a, 'PATCH', `/api/v1/contacts/${id}`, { tags: [], attributes: { city: null } });
    assert.deepEqual([patched.body.data.tags, patched.body.data.attributes], [[], { plan: 'gold' }]);
    assert.equal((await api(b, 'GET', `/api/v1/contacts/${id}`)).status, 404, "another account's is none");
    assert.equal((await api(b, 'DELETE', `/api/v1/contacts/${id}`)).status, 404);
    assert.equal((await api(a, 'DELETE', `/api/v1/contacts/${id}`)).status, 200);
    assert.equal((await api(a, 'GET', `/api/v1/contacts/${id}`)).status, 404);
  });

  test('each bad input is a 400 naming its field; a number of another contact is a 409', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'Nobody' }, 'phone'],
      [{ phone: '12345' }, 'phone'],
      [{ userId: 'not-an-id' }, 'userId'],
      [{ phone: '+254712000103', tags: ['ok', '<b>'] }, 'tags[1]'],
      [{ phone: '+254712000103', attributes: { '1st': 'x' } }, 'attributes.1st'],
      [{ phone: '+254712000103', name: '' }, 'name'],
      [{ contacts: [{ phone: '+254712000103' }, { phone: 'x' }] }, 'contacts[1].phone'],
      [{ phone: '+254712000103', contacts: [{ phone: '+254712000104' }] }, 'phone'],
    ];
    for (const [body, field] of cases) {
      const r = await api(a, 'POST', '/api/v1/contacts', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(
        r.body.message,
        new RegExp(`^\`${field.replace(/[[\].]/g, '\\$&')}\``),
        JSON.stringify(r.body),
      );
    }
    // A value of the wrong type says which types the field takes.
    const typed = await api(a, 'POST', '/api/v1/contacts', { phone: '+254712000103', name: 123 });
    assert.equal(typed.body.message, '`name` must be a string or null');
    const attribute = await api(a, 'POST', '/api/v1/contacts', {
      phone: '+254712000103',
      attributes: { city: [1] },
    });
    assert.equal(attribute.body.message, '`attributes.city` must be a string or null');
    const other = await api(a, 'POST', '/api/v1/contacts', { phone: '+254712000105' });
    const taken = await api(a, 'PATCH', `/api/v1/contacts/${other.body.data.id}`, { phone: '+254712000101' });
    assert.equal(taken.status, 409, JSON.stringify(taken.body));
    assert.equal((await api(a, 'GET', '/api/v1/contacts?per_page=201')).status, 400);
    const twice = await api(a, 'GET', '/api/v1/contacts?page=1&page=2');
    assert.equal(twice.status, 400);
    assert.equal(twice.body.message, 'query parameter `page` is given 2 times; give it once');
  });

  test('a NUL in a text comes back, is stored and is read as U+FFFD (docs/contract.md, "Text")', async () => {
    const made = await api(a, 'POST', '/api/v1/contacts', {
      phone: '+254712000131',
      name: 'Nul\u0000Name',
      attributes: { city: 'Nai\u0000robi' },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.data.name, 'Nul\uFFFDName');
    const read = await api(a, 'GET', `/api/v1/contacts/${made.body.data.id}`);
    assert.deepEqual(read.body.data, made.body.data, 'what was answered is what was stored');
    assert.equal(read.body.data.attributes.city, 'Nai\uFFFDrobi');
  });

  test('a user who writes to the number becomes a contact, named by their profile', async () => {
    await userSays(t, '447911200077', NUMBER, { text: 'Are you open on Sunday?', profileName: 'Grace' });
    // Run before the imports below, so the first page holds every contact so far.
    const found = await eventually(async () => {
      const list = await api(a, 'GET', '/api/v1/contacts?per_page=200');
      return list.body.data.contacts.find((c: { phone: string }) => c.phone === '+447911200077');
    });
    assert.equal(found.name, 'Grace');
    assert.match(found.userId, /^[A-Z]{2}\.\d+$/);
  });

  const importCsv = async (account: TestAccount, csv: string) => {
    const form = new FormData();
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
    const r = await fetch(`${t.url}/api/v1/contacts/import`, {
      method: 'POST',
      headers: { apiKey: account.apiKey },
      body: form,
    });
    return { status: r.status, body: (await r.json()) as any };
  };

  test('a CSV import upserts every valid row and reports every other with its line', async () => {
    const csv = [
      'phone,name,tags,city',
      '+254712000401,Wanjiru,imported;kenya,Nairobi',
      'not-a-number,Bad,,',
      '',
      ',No key,,',
      '"+254712000402","Akinyi, Jane",imported,Mombasa',
      '+254712000401,Wanjiru K.,imported,Nakuru',
    ].join('\n');
    const r = await importCsv(a, csv);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.data, {
      rows: 5,
      created: 2,
      updated: 1,
      rejected: [
        { line: 3, reason: '`phone` must be a valid phone number with country code, e.g. +14155550123' },
        { line: 5, reason: '`phone` or `userId` is required: they say who the contact is' },
      ],
    });
    const listed = await api(a, 'GET', '/api/v1/contacts?tag=imported');
    assert.equal(listed.body.data.total, 2);
    const akinyi = listed.body.data.contacts.find((c: { phone: string }) => c.phone === '+254712000402');
    assert.equal(akinyi.name, 'Akinyi, Jane', 'a quoted cell keeps its comma');
    assert.deepEqual(akinyi.attributes, { city: 'Mombasa' });
    assert.equal((await api(b, 'GET', '/api/v1/contacts?tag=imported')).body.data.total, 0);
  });

  test('a large import is read as it arrives, a batch at a time', async () => {
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `+2547130${String(i).padStart(5, '0')},Bulk ${i},bulk`,
    );
    const r = await importCsv(a, ['phone,name,tags', ...rows].join('\n'));
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    assert.deepEqual([r.body.data.rows, r.body.data.created, r.body.data.rejected.length], [3000, 3000, 0]);
    assert.equal((await api(a, 'GET', '/api/v1/contacts?tag=bulk&per_page=1')).body.data.total, 3000);
  });

  test('a file with a bad header or broken quoting is a 400 naming `file`, before any row is stored', async () => {
    const badColumn = await importCsv(a, 'phone,favourite colour\n+254712000501,blue\n');
    assert.equal(badColumn.status, 400);
    assert.match(badColumn.body.message, /^`file`: the column "favourite colour"/);
    const noKey = await importCsv(a, 'name\nX\n');
    assert.match(noKey.body.message, /with `phone` or `user_id` among them/);
    const broken = await importCsv(a, 'phone,name\n"+254712000502,X\n');
    assert.equal(broken.status, 400);
    assert.match(broken.body.message, /^`file` is not a readable CSV file: .*line 2/);
    assert.equal((await importCsv(a, '')).status, 400);
    // Headers and lines past the reader's bounds are refused as they arrive, by their count or size alone:
    // a header of 150,000 columns once held the process for tens of seconds, compared column by column.
    const huge = await importCsv(
      a,
      `phone,${Array.from({ length: 150_000 }, (_, i) => `a${i}`).join(',')}\n`,
    );
    assert.equal(huge.status, 400);
    assert.match(huge.body.message, /^`file` is not a readable CSV file: Max Record Size.* at line 1/);
    const wide = await importCsv(a, `phone,${Array.from({ length: 2_000 }, (_, i) => `a${i}`).join(',')}\n`);
    assert.equal(wide.status, 400);
    assert.match(wide.body.message, /names 2001 columns; at most 1000 are read/);
    const attributes = Array.from({ length: 51 }, (_, i) => `a${i}`).join(',');
    const many = await importCsv(a, `phone,${attributes}\n+254712000503\n`);
    assert.equal(many.body.message, '`file` may have at most 50 attribute columns');
    const twice = await importCsv(a, 'phone,city,name,city\n+254712000504,x,y,z\n');
    assert.equal(twice.body.message, '`file`: the column "city" appears twice');
    const long = await importCsv(a, `phone,name\n+254712000505,${'x'.repeat(300_000)}\n`);
    assert.equal(long.status, 400);
    assert.match(long.body.message, /^`file` is not a readable CSV file: Max Record Size.* at line 2/);
    const list = await api(a, 'GET', '/api/v1/contacts?per_page=200&tag=blue');
    assert.equal(list.body.data.total, 0);
  });
});
