/**
 * The portal's contacts page over real HTTP (docs/contacts.md, docs/portal.md): a contact added in a form
 * is listed; a bad number is shown at its field with the form kept; a tag filters; pages turn; what a
 * contact holds is shown as text, never as markup; another account sees none of it. Users who opted out of
 * the account's marketing (a STOP through the simulated network, a stop in WhatsApp's settings) are listed
 * with how.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addSimulatedNumber,
  call,
  eventually,
  startGateway,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { PortalClient } from '../support/portal-client.ts';

describe('contacts in the portal', () => {
  let t: TestGateway;
  let client: PortalClient;

  before(async () => {
    t = await startGateway();
    client = new PortalClient(t.url);
    await client.signUp('contacts@example.com', 'correct horse battery', 'Contacts Co');
  });
  after(() => t.close());

  test('a contact added in the form is listed, its name shown as text', async () => {
    const empty = await client.get('/app/contacts');
    assert.equal(empty.status, 200);
    assert.match(empty.html, /No contacts yet/);
    assert.match(empty.html, /aria-current="page">Contacts</);
    const saved = await client.post('/app/contacts', {
      phone: '+44 7911 123456',
      name: '<script>alert(1)</script> Amina',
      tags: 'vip, nairobi',
    });
    assert.equal(saved.status, 303);
    assert.equal(saved.location, '/app/contacts?notice=contact-saved');
    const listed = await client.get(saved.location!);
    assert.match(listed.html, /The contact was saved\./);
    assert.match(listed.html, /\+447911123456/);
    assert.match(listed.html, /&lt;script&gt;alert\(1\)&lt;\/script&gt; Amina/);
    assert.doesNotMatch(listed.html, /<script>alert/);
    assert.match(listed.html, /nairobi, vip/);
  });

  test('a bad number is shown at its field, the form kept', async () => {
    await client.get('/app/contacts');
    const refused = await client.post('/app/contacts', { phone: '12345', name: 'Kept', tags: '' });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /id="f-phone-error">`phone` must be a valid phone number/);
    assert.match(refused.html, /aria-invalid="true"/);
    assert.match(refused.html, /value="Kept"/);
  });

  test('a CSV file imported in the form: valid rows made, refused ones listed with their line', async () => {
    await client.get('/app/contacts');
    const csv =
      'phone,name,tags,city\n+254712000901,Wanjiru,csv;nairobi,Nairobi\n12345,Bad,,\n+254712000902,<b>Otieno</b>,csv,\n';
    const imported = await client.postFile(
      '/app/contacts/import',
      {},
      {
        field: 'file',
        name: 'contacts.csv',
        type: 'text/csv',
        content: csv,
      },
    );
    assert.equal(imported.status, 200);
    assert.match(imported.html, /The file had 3 rows: 2 contacts made, 0 changed, 1 refused\./);
    assert.match(imported.html, /<li>Line 3: `phone` must be a valid phone number/);
    const tagged = await client.get('/app/contacts?tag=csv');
    assert.match(tagged.html, /\+254712000901/);
    assert.match(tagged.html, /city: Nairobi/);
    assert.match(tagged.html, /&lt;b&gt;Otieno&lt;\/b&gt;/, 'a name from a file is text');

    const again = await client.postFile(
      '/app/contacts/import',
      {},
      {
        field: 'file',
        name: 'contacts.csv',
        type: 'text/csv',
        content: 'phone,name\n+254712000901,Wanjiru Kamau\n',
      },
    );
    assert.match(again.html, /The file had 1 row: 0 contacts made, 1 changed, 0 refused\./);
    assert.match((await client.get('/app/contacts?tag=csv')).html, />Wanjiru Kamau</);
  });

  test('an import without a file, or with a file that names no phone column, is refused at its field', async () => {
    await client.get('/app/contacts');
    const none = await client.postFile('/app/contacts/import', {});
    assert.equal(none.status, 400);
    assert.match(none.html, /id="f-file-error">Choose a CSV file to import\./);
    await client.get('/app/contacts');
    const noPhone = await client.postFile(
      '/app/contacts/import',
      {},
      {
        field: 'file',
        name: 'wrong.csv',
        type: 'text/csv',
        content: 'name,city\nAmina,Nairobi\n',
      },
    );
    assert.equal(noPhone.status, 400);
    assert.match(noPhone.html, /id="f-file-error">`file`: the first line must name the columns/);
    await client.get('/app/contacts');
    const token = client.csrf;
    client.csrf = undefined;
    const noToken = await client.postFile(
      '/app/contacts/import',
      {},
      {
        field: 'file',
        name: 'contacts.csv',
        type: 'text/csv',
        content: 'phone\n+254712000903\n',
      },
    );
    client.csrf = token;
    assert.equal(noToken.status, 403, 'a form without its token imports nothing');
    assert.doesNotMatch((await client.get('/app/contacts?tag=')).html, /254712000903/);
  });

  test('a contact is deleted after a page that says what stays; another account cannot', async () => {
    await client.get('/app/contacts');
    await client.post('/app/contacts', { phone: '+254712000990', name: 'Leaving Soon', tags: 'leaving' });
    const listed = await client.get('/app/contacts?tag=leaving');
    const href =
      /href="(\/app\/contacts\/ctc_[a-z0-9]+\/delete)">Delete<span class="visually-hidden"> Leaving Soon</.exec(
        listed.html,
      )?.[1];
    assert.ok(href, 'each row links to its deletion, named for a screen reader');
    const confirm = await client.get(href);
    assert.equal(confirm.status, 200);
    assert.match(confirm.html, /Delete the contact <bdi>Leaving Soon, \+254712000990<\/bdi>\?/);

    const other = new PortalClient(t.url);
    await other.signUp('intruder@example.com', 'another correct horse', 'Intruder Co');
    assert.equal((await other.get(href)).status, 404);
    assert.equal((await other.post(href, {})).status, 404);

    const deleted = await client.post(href, {});
    assert.equal(deleted.status, 303);
    assert.equal(deleted.location, '/app/contacts?notice=contact-deleted');
    const after = await client.get(deleted.location!);
    assert.match(after.html, /The contact was deleted\./);
    assert.doesNotMatch(after.html, /254712000990/);
    assert.equal((await client.post(href, {})).status, 404, 'deleted once, then not found');
  });

  test('attributes are set, changed and removed from the form; a bad one is shown at its field', async () => {
    await client.get('/app/contacts');
    const phone = '+44 7911 123457';
    const first = await client.post('/app/contacts', {
      phone,
      name: 'Bruno',
      tags: 'attrs',
      attributes: 'city=Nairobi\n plan = gold \n',
    });
    assert.equal(first.status, 303);
    const row = async () => {
      const page = await client.get('/app/contacts?tag=attrs');
      return /<td data-label="Attributes">([^<]*)<\/td>/.exec(page.html)?.[1];
    };
    assert.equal(await row(), 'city: Nairobi; plan: gold');
    // Others are kept; an empty value removes one.
    await client.post('/app/contacts', {
      phone,
      name: 'Bruno',
      tags: 'attrs',
      attributes: 'city=\nshop=Mombasa',
    });
    assert.equal(await row(), 'plan: gold; shop: Mombasa');
    const noEquals = await client.post('/app/contacts', { phone, tags: 'attrs', attributes: 'city Nairobi' });
    assert.equal(noEquals.status, 400);
    assert.match(noEquals.html, /id="f-attributes-error">Line 1 of the attributes must be name=value\./);
    const badName = await client.post('/app/contacts', { phone, tags: 'attrs', attributes: '1city=x' });
    assert.equal(badName.status, 400);
    assert.match(badName.html, /id="f-attributes-error">`attributes\.1city`: an attribute name must be/);
    assert.match(badName.html, />1city=x<\/textarea>/, 'the form is kept');
  });

  test('a tag filters, and pages turn', async () => {
    for (let i = 0; i < 55; i++) {
      await client.get('/app/contacts');
      const saved = await client.post('/app/contacts', {
        phone: `+2547120006${String(i).padStart(2, '0')}`,
        name: `P${i}`,
        tags: 'bulk',
      });
      assert.equal(saved.status, 303);
    }
    const first = await client.get('/app/contacts?tag=bulk');
    assert.match(first.html, /Page 1 of 2 \(55 contacts\)/);
    assert.match(first.html, /href="\/app\/contacts\?tag=bulk&amp;page=2">Next page/);
    const second = await client.get('/app/contacts?tag=bulk&page=2');
    assert.match(second.html, /Page 2 of 2/);
    assert.match(second.html, />P54</);
    const none = await client.get('/app/contacts?tag=nobody');
    assert.match(none.html, /No contact has this tag\./);
  });

  test("who opted out of the account's marketing is listed, with how", async () => {
    assert.match(
      (await client.get('/app/contacts')).html,
      /Nobody has opted out of your numbers' marketing\./,
    );
    const { id: accountId } = await t.gateway.store.db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', 'Contacts Co')
      .executeTakeFirstOrThrow();
    const number = '14155550131';
    await addSimulatedNumber(t, accountId, number);
    await userSays(t, '447911123457', `+${number}`, { text: 'STOP' });
    const stopped = await call(t.url, 'PUT', '/simulator/users/447911123458/marketing', {
      body: { business: number, stopped: true },
    });
    assert.equal(stopped.status, 200);
    const listed = await eventually(async () => {
      const page = await client.get('/app/contacts');
      return /2 in all/.test(page.html) && page;
    });
    assert.match(
      listed.html,
      /\+447911123457<\/td><td data-label="Number">\+14155550131<\/td><td data-label="How">Replied “STOP”/,
    );
    assert.match(
      listed.html,
      /\+447911123458<\/td><td data-label="Number">\+14155550131<\/td><td data-label="How">Stopped your marketing in WhatsApp/,
    );
  });

  test("another account's portal shows none of them", async () => {
    const other = new PortalClient(t.url);
    await other.signUp('other@example.com', 'another correct horse', 'Other Co');
    const page = await other.get('/app/contacts');
    assert.match(page.html, /No contacts yet/);
    assert.doesNotMatch(page.html, /447911123456/);
    assert.match(page.html, /Nobody has opted out/, "nor another account's opt-outs");
  });
});
