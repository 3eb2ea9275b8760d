/**
 * Media uploaded to send by id, end to end: the API recognises the file by its content, the simulated
 * network takes it (docs/cloud-api.md §5.1) and the send names it by the gateway's `mediaId`, which reaches
 * the virtual phone as the network's id; delete forgets it on both. The edges: a file the network does not
 * carry, one over its kind's size, a number that is not the account's, a send of the wrong kind, and
 * another account's upload (a 404, for the send and the delete alike).
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { call, createAccount, joinSandbox, receivedBy, type TestAccount } from '../support/gateway.ts';
import { type ReceivingGateway, startReceivingGateway } from '../support/receiving-gateway.ts';

const USER = '254712399101';
/** A user of the other account's sandbox. */
const THEIR_USER = '254712399102';
const SANDBOX = DEFAULT_SANDBOX_NUMBER;
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

describe('media uploaded to send by id', () => {
  let g: ReceivingGateway;
  let other: TestAccount;

  const upload = async (
    bytes: Buffer,
    type: string,
    name: string,
    key = g.account.apiKey,
    phone = SANDBOX,
  ) => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(bytes)], { type }), name);
    const r = await fetch(`${g.t.url}/api/v1/media/${encodeURIComponent(`+${phone}`)}`, {
      method: 'POST',
      headers: { apiKey: key },
      body: form,
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  const sendMedia = (body: Record<string, unknown>, key = g.account.apiKey) =>
    call(g.t.url, 'POST', '/api/v1/msg/media', { key, body: { from: SANDBOX, to: USER, ...body } });

  /** The media object the simulated network answers for its own media id, as the business reads it. */
  const networkMedia = (networkId: string) =>
    call(g.t.url, 'GET', `/simulator/${g.t.gateway.config.graph.apiVersion}/${networkId}`, {
      headers: { authorization: `Bearer ${g.t.gateway.config.simulator.accessToken}` },
    });

  before(async () => {
    g = await startReceivingGateway('Uploads Co', [USER]);
    other = await createAccount(g.t, 'Other Co');
    await joinSandbox(g.t, other, THEIR_USER);
  });
  after(() => g?.close());

  test('an uploaded image is sent by its mediaId and reaches the phone; deleting it forgets it', async () => {
    const up = await upload(PNG, 'application/octet-stream', 'dot.png');
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.deepEqual(up.body.data, {
      mediaId: up.body.data.mediaId,
      phone: `+${SANDBOX}`,
      mediaType: 'IMAGE',
      mimeType: 'image/png',
      size: PNG.length,
    });
    assert.match(up.body.data.mediaId, /^upl_[0-9a-z]{26}$/);
    const spool = path.join(g.t.gateway.config.dataDir, 'uploads');
    assert.deepEqual(readdirSync(spool), [], 'the spooled file is gone once the network has it');

    const sent = await sendMedia({
      messageId: 'pic-1',
      mediaType: 'image',
      mediaId: up.body.data.mediaId,
      caption: 'A dot',
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const onPhone = (await receivedBy(g.t, USER)).find((m) => m.id === sent.body.data.waId);
    assert.equal(onPhone.content.image.caption, 'A dot');
    assert.match(onPhone.content.image.id, /^\d+$/, "the network's own id went to the network");
    const object = await networkMedia(onPhone.content.image.id);
    assert.equal(object.body.file_size, PNG.length);

    const wrongKind = await sendMedia({
      messageId: 'pic-2',
      mediaType: 'AUDIO',
      mediaId: up.body.data.mediaId,
    });
    assert.equal(wrongKind.status, 400);
    assert.match(wrongKind.body.message, /send it with mediaType IMAGE/);
    const both = await sendMedia({
      messageId: 'pic-3',
      mediaType: 'IMAGE',
      mediaId: up.body.data.mediaId,
      mediaUrl: 'https://cdn.example.com/a.png',
    });
    assert.equal(both.status, 400);
    assert.match(both.body.message, /either `mediaUrl` or `mediaId`, not both/);

    const underAnother = await call(
      g.t.url,
      'DELETE',
      `/api/v1/media/%2B14155550199/${up.body.data.mediaId}`,
      {
        key: g.account.apiKey,
      },
    );
    assert.equal(underAnother.status, 404, 'an upload is found only under the number it was uploaded for');
    assert.equal(
      underAnother.body.message,
      `no uploaded media with mediaId "${up.body.data.mediaId}" for +14155550199`,
    );
    const badPhone = await call(g.t.url, 'DELETE', `/api/v1/media/abc/${up.body.data.mediaId}`, {
      key: g.account.apiKey,
    });
    assert.equal(badPhone.status, 400);
    assert.match(badPhone.body.message, /`phone` in the path must be a phone number with country code/);
    const deleted = await call(
      g.t.url,
      'DELETE',
      `/api/v1/media/${encodeURIComponent(`+${SANDBOX}`)}/${up.body.data.mediaId}`,
      {
        key: g.account.apiKey,
      },
    );
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const gone = await networkMedia(onPhone.content.image.id);
    assert.equal(gone.status, 400, 'gone from the network too');
    const after = await sendMedia({ messageId: 'pic-4', mediaType: 'IMAGE', mediaId: up.body.data.mediaId });
    assert.equal(after.status, 404);
  });

  test('a document is recognised by its content; what the network does not carry is refused naming file', async () => {
    const pdf = await upload(PDF, 'application/pdf', 'invoice.pdf');
    assert.equal(pdf.body.data.mediaType, 'DOCUMENT');
    const sent = await sendMedia({
      messageId: 'doc-1',
      mediaType: 'DOCUMENT',
      mediaId: pdf.body.data.mediaId,
      filename: 'invoice.pdf',
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));

    const html = await upload(Buffer.from('<html><script>alert(1)</script></html>'), 'image/png', 'x.png');
    assert.equal(html.status, 400);
    assert.match(html.body.message, /`file` must be media the network carries/);
    const empty = await upload(Buffer.alloc(0), 'image/png', 'empty.png');
    assert.equal(empty.status, 400);
    assert.match(empty.body.message, /`file` is empty/);
    const big = await upload(
      Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(5 * 1024 * 1024)]),
      'image/jpeg',
      'big.jpg',
    );
    assert.equal(big.status, 413);
    assert.match(big.body.message, /image\/jpeg may be at most 5242880 bytes/);
    const notOurs = await upload(PNG, 'image/png', 'dot.png', g.account.apiKey, '14155550199');
    assert.equal(notOurs.status, 403);
    assert.match(notOurs.body.message, /nor a number registered to your account/);
  });

  test("another account's upload is not found, for the send and for the delete", async () => {
    const up = await upload(PNG, 'image/png', 'dot.png');
    const send = await sendMedia(
      { messageId: 'theirs-1', to: THEIR_USER, mediaType: 'IMAGE', mediaId: up.body.data.mediaId },
      other.apiKey,
    );
    assert.equal(send.status, 404, JSON.stringify(send.body));
    const del = await call(
      g.t.url,
      'DELETE',
      `/api/v1/media/${encodeURIComponent(`+${SANDBOX}`)}/${up.body.data.mediaId}`,
      { key: other.apiKey },
    );
    assert.equal(del.status, 404);
    assert.match(del.body.message, /no uploaded media with mediaId/);
  });
});
