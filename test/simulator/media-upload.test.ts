/**
 * A business uploads media to the simulated network (docs/cloud-api.md §5.1) and sends it by id: Meta's
 * multipart form, its `{"id"}` answer, the media object and download of what was uploaded, delete, and
 * Meta's refusals (code 100 for the form, 131053 for a type or size the network does not carry).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  openWindow,
  request,
  startHarness,
  statusesOf,
  TOKEN,
  USER,
  VERSION,
} from './harness.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

function upload(
  h: Harness,
  parts: { file?: { bytes: Buffer; type: string; name: string }; type?: string; product?: string | null },
  token: string | null = TOKEN,
) {
  const form = new FormData();
  if (parts.product !== null) form.set('messaging_product', parts.product ?? 'whatsapp');
  if (parts.type !== undefined) form.set('type', parts.type);
  if (parts.file)
    form.set(
      'file',
      new Blob([new Uint8Array(parts.file.bytes)], { type: parts.file.type }),
      parts.file.name,
    );
  return fetch(`${h.base}/${VERSION}/${BUSINESS}/media`, {
    method: 'POST',
    body: form,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
}

describe('media uploaded by the business', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('an upload answers its id; the media object and its download give back the same file', async () => {
    const up = await upload(h, {
      file: { bytes: PNG, type: 'image/png', name: 'dot.png' },
      type: 'image/png',
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.deepEqual(Object.keys(up.body), ['id']);
    assert.match(up.body.id, /^\d+$/);

    const object = await request(`${h.base}/${VERSION}/${up.body.id}`, { token: TOKEN });
    assert.equal(object.status, 200);
    assert.equal(object.body.mime_type, 'image/png');
    assert.equal(object.body.file_size, PNG.length);
    assert.equal(object.body.sha256, createHash('sha256').update(PNG).digest('hex'));
    const download = await fetch(object.body.url, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), PNG);

    await openWindow(h);
    const sent = await graphSend(h, { type: 'image', image: { id: up.body.id, caption: 'A dot' } });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    const deleted = await request(`${h.base}/${VERSION}/${up.body.id}`, { method: 'DELETE', token: TOKEN });
    assert.deepEqual(deleted.body, { success: true });
    const gone = await request(`${h.base}/${VERSION}/${up.body.id}`, { token: TOKEN });
    assert.equal(gone.status, 400);

    // Sent again by the id of the deleted file (or of none): taken, then failed with 131053, never shown.
    for (const id of [up.body.id, '1234']) {
      const again = await graphSend(h, { type: 'image', image: { id } });
      assert.equal(again.status, 200, JSON.stringify(again.body));
      const wamid = again.body.messages[0].id;
      const [failed] = await eventually(() => {
        const s = statusesOf(h, wamid);
        return s.length > 0 ? s : undefined;
      });
      assert.equal(failed.status, 'failed');
      assert.equal(failed.errors[0].code, 131053);
      assert.match(failed.errors[0].error_data.details, new RegExp(`no media with id ${id}`));
    }
    const phone = await request(`${h.base}/users/${USER}/messages`);
    assert.equal(phone.body.messages.length, 1, 'only the image whose file existed reached the phone');
  });

  test("the file's own content type stands in for a missing type part", async () => {
    const up = await upload(h, { file: { bytes: Buffer.from('hello'), type: 'text/plain', name: 'a.txt' } });
    assert.equal(up.status, 200, JSON.stringify(up.body));
  });

  test("Meta's refusals: the form (100), the token (190), a type or size the network does not carry (131053)", async () => {
    const file = { bytes: PNG, type: 'image/png', name: 'dot.png' };
    const noProduct = await upload(h, { file, product: null });
    assert.equal(noProduct.body.error.code, 100);
    assert.match(noProduct.body.error.error_data.details, /messaging_product/);
    const noFile = await upload(h, { type: 'image/png' });
    assert.equal(noFile.body.error.code, 100);
    assert.match(noFile.body.error.error_data.details, /file/);
    assert.equal((await upload(h, { file }, 'wrong')).body.error.code, 190);

    const html = await upload(h, {
      file: { bytes: Buffer.from('<script>'), type: 'text/html', name: 'x.html' },
    });
    assert.equal(html.status, 400);
    // As Meta answers it: an invalid parameter naming the types it takes and the one it got.
    assert.equal(html.body.error.code, 100);
    assert.match(
      html.body.error.error_data.details,
      /^Param file must be a file with one of the following types: .*image\/jpeg.*\. Received file of type 'text\/html'\.$/,
    );
    const big = await upload(h, {
      file: { bytes: Buffer.alloc(5 * 1024 * 1024 + 1, 1), type: 'image/jpeg', name: 'big.jpg' },
    });
    assert.equal(big.body.error.code, 131053);
    assert.match(big.body.error.error_data.details, /largest image is 5242880/);
  });
});
