/**
 * What the simulated Graph answers beside sends, as Meta does (docs/cloud-api.md §0, §6, §9): a path it
 * does not have is Graph's error object (code 2500, with `fbtrace_id`), never the gateway's envelope;
 * unversioned paths are served on the default version; a number's business profile is read and updated
 * within Meta's limits; a WABA lists its phone numbers and its subscribed apps; a flow lists its asset,
 * which downloads with the token; profiles and subscriptions are kept like the rest of the network.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { BUSINESS, type Harness, request, startHarness, TOKEN, USER, VERSION } from './harness.ts';

const SIGN_UP_FLOW = readFileSync(new URL('../../examples/flows/sign-up.json', import.meta.url), 'utf8');

describe('the simulated Graph beside sends', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());
  const graph = (path: string, options: { method?: string; body?: unknown; token?: string | null } = {}) =>
    request(`${h.base}${path}`, { token: TOKEN, ...options });

  test('an unknown path is a Graph error with fbtrace_id', async () => {
    const r = await graph(`/${VERSION}/${BUSINESS}/no_such_edge`);
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 2500);
    assert.equal(r.body.error.type, 'OAuthException');
    assert.match(r.body.error.fbtrace_id, /^[A-Za-z0-9_-]+$/);
    // Meta's words name the path; a 2500 has no `error_data`, which is the WhatsApp errors' own part.
    assert.equal(r.body.error.message, 'Unknown path components: /v23.0/14155550100/no_such_edge');
    assert.equal(r.body.error.error_data, undefined);
  });

  test('unversioned paths are served: a send, a media upload, an object read', async () => {
    await request(`${h.base}/users/${USER}/messages`, { body: { to: BUSINESS, text: 'open' } });
    const sent = await graph(`/${BUSINESS}/messages`, {
      body: { messaging_product: 'whatsapp', to: USER, type: 'text', text: { body: 'unversioned' } },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const form = new FormData();
    form.set('messaging_product', 'whatsapp');
    form.set('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'a.pdf');
    const uploaded = await fetch(`${h.base}/${BUSINESS}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: form,
    });
    assert.equal(uploaded.status, 200);
    const { id } = (await uploaded.json()) as { id: string };
    assert.equal((await graph(`/${id}`)).body.id, id);
    assert.equal((await graph(`/v0x/${id}`)).body.error.code, 2500, 'a version that is not one');
  });

  test('business profile: read, update within the limits, read back', async () => {
    const before = await graph(`/${VERSION}/${BUSINESS}/whatsapp_business_profile`);
    assert.equal(before.body.data[0].messaging_product, 'whatsapp');
    const update = {
      messaging_product: 'whatsapp',
      about: 'Fresh bread daily',
      vertical: 'RESTAURANT',
      websites: ['https://bakery.example.org'],
    };
    assert.deepEqual(
      (await graph(`/${VERSION}/${BUSINESS}/whatsapp_business_profile`, { body: update })).body,
      {
        success: true,
      },
    );
    const after = await graph(`/${VERSION}/${BUSINESS}/whatsapp_business_profile?fields=about,vertical`);
    assert.deepEqual(after.body.data, [
      { about: 'Fresh bread daily', vertical: 'RESTAURANT', messaging_product: 'whatsapp' },
    ]);
    const tooLong = await graph(`/${VERSION}/${BUSINESS}/whatsapp_business_profile`, {
      body: { messaging_product: 'whatsapp', about: 'x'.repeat(140) },
    });
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.error.error_data.details, /'about' must be a string of at most 139 characters/);
  });

  test('a WABA lists its number and its subscribed apps', async () => {
    const numbers = await graph(`/${VERSION}/${BUSINESS}/phone_numbers`);
    assert.equal(numbers.body.data[0].id, BUSINESS);
    assert.equal(numbers.body.data[0].display_phone_number, BUSINESS);
    assert.deepEqual((await graph(`/${VERSION}/${BUSINESS}/subscribed_apps`)).body.data, []);
    assert.deepEqual((await graph(`/${VERSION}/${BUSINESS}/subscribed_apps`, { body: {} })).body, {
      success: true,
    });
    assert.equal((await graph(`/${VERSION}/${BUSINESS}/subscribed_apps`)).body.data.length, 1);
    await graph(`/${VERSION}/${BUSINESS}/subscribed_apps`, { method: 'DELETE' });
    assert.deepEqual((await graph(`/${VERSION}/${BUSINESS}/subscribed_apps`)).body.data, []);
  });

  test('a flow lists its Flow JSON asset, which downloads with the token', async () => {
    const created = await graph(`/${VERSION}/${BUSINESS}/flows`, {
      body: { name: 'Sign up', categories: ['SIGN_UP'], flow_json: SIGN_UP_FLOW },
    });
    const assets = await graph(`/${VERSION}/${created.body.id}/assets`);
    assert.equal(assets.status, 200, JSON.stringify(assets.body));
    const [asset] = assets.body.data;
    assert.equal(asset.asset_type, 'FLOW_JSON');
    const file = await fetch(asset.download_url, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(file.status, 200);
    assert.deepEqual(JSON.parse(await file.text()), JSON.parse(SIGN_UP_FLOW));
    const noToken = await fetch(asset.download_url);
    assert.equal(noToken.status, 401);
  });

  test('a flow created with publish: true and a valid Flow JSON is PUBLISHED at once; an invalid one stays a DRAFT', async () => {
    const status = async (id: string) => (await graph(`/${VERSION}/${id}?fields=status`)).body.status;
    const live = await graph(`/${VERSION}/${BUSINESS}/flows`, {
      body: { name: 'Sign up now', categories: ['SIGN_UP'], flow_json: SIGN_UP_FLOW, publish: true },
    });
    assert.deepEqual(live.body.validation_errors, []);
    assert.equal(await status(live.body.id), 'PUBLISHED');
    const broken = await graph(`/${VERSION}/${BUSINESS}/flows`, {
      body: {
        name: 'Broken',
        categories: ['OTHER'],
        flow_json: '{"version":"7.1","screens":[]}',
        publish: true,
      },
    });
    assert.ok(broken.body.validation_errors.length > 0);
    assert.equal(await status(broken.body.id), 'DRAFT');
  });
});
