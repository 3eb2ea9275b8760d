/**
 * A media message whose media object names a download URL inside the gateway's network: the gateway
 * (private URLs not allowed) never fetches it, and still stores the message and records its
 * `message.received` event, with `url: null` and the reason in `mediaError`.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { encryptSecret } from '../../src/lib/sealed-secrets.ts';
import {
  call,
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';
import { signNetworkBody } from '../support/network-envelopes.ts';

const NUMBER = '14155550177';
const PHONE_NUMBER_ID = '177000000000001';
const USER = '254712300777';

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function imageEnvelope(waId: string, mediaId: string) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: NUMBER, phone_number_id: PHONE_NUMBER_ID },
              contacts: [{ profile: { name: 'Ada' }, wa_id: USER }],
              messages: [
                {
                  from: USER,
                  id: waId,
                  timestamp: String(Math.floor(Date.now() / 1000)),
                  type: 'image',
                  image: { id: mediaId, mime_type: 'image/jpeg', sha256: 'x', caption: 'look' },
                },
              ],
            },
          },
        ],
      },
    ],
  };
}

describe('inbound media whose download URL points inside the network', () => {
  let t: TestGateway;
  let account: TestAccount;
  let graph: Server;
  let internal: Server;
  let internalHits = 0;

  before(async () => {
    internal = createServer((_request, response) => {
      internalHits += 1;
      response.end('internal secrets');
    });
    const internalUrl = await listen(internal);
    // The network's media object names a loopback URL (another service on the gateway's host).
    graph = createServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      if (request.method === 'GET' && request.url?.startsWith('/v23.0/')) {
        const id = request.url.slice('/v23.0/'.length);
        return response.end(
          JSON.stringify({ url: `${internalUrl}/files/${id}`, mime_type: 'image/jpeg', id, file_size: 16 }),
        );
      }
      response.writeHead(404).end('{}');
    });
    const graphUrl = await listen(graph);
    t = await startGateway({ env: { GRAPH_BASE_URL: graphUrl } });
    account = await createAccount(t, 'Guarded Co');
    await t.gateway.repos.numbers.addNumber({
      accountId: account.accountId,
      phone: NUMBER,
      phoneNumberId: PHONE_NUMBER_ID,
      sealedAccessToken: encryptSecret('graph-token', t.gateway.secretKey),
      sessionCheck: true,
      wabaId: null,
    });
    // An endpoint, so the account keeps its events; subscribed to statuses only, so nothing is delivered.
    const endpoint = await call(t.url, 'POST', '/api/v1/webhooks', {
      key: account.apiKey,
      body: { url: 'https://hooks.example.com/switchboard', events: ['message.status'] },
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
  });
  after(async () => {
    await t.close();
    graph.close();
    internal.close();
  });

  test('is not fetched; the message is received with the media error', async () => {
    const raw = JSON.stringify(imageEnvelope('wamid.GUARDED1', '9000000000000001'));
    const signature = signNetworkBody(raw, t.gateway.config.graph.appSecret);
    const posted = await fetch(`${t.url}/webhooks/network`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
      body: raw,
    });
    assert.equal(posted.status, 200);

    const event = await eventually(() =>
      t.gateway.store.db
        .selectFrom('events')
        .selectAll()
        .where('account_id', '=', account.accountId)
        .where('type', '=', 'message.received')
        .executeTakeFirst(),
    );
    const image = JSON.parse(event.payload).data.image;
    assert.equal(image.url, null);
    assert.match(
      image.mediaError,
      /^media download refused: the download URL must (start with https|not point)/,
    );
    assert.equal(image.caption, 'look');
    assert.equal(internalHits, 0, 'the URL inside the network was never requested');

    const stored = await t.gateway.store.db
      .selectFrom('inbound_messages')
      .selectAll()
      .where('wa_id', '=', 'wamid.GUARDED1')
      .executeTakeFirst();
    assert.equal(stored?.account_id, account.accountId);
    const files = await t.gateway.store.db.selectFrom('media_files').selectAll().execute();
    assert.deepEqual(files, []);
  });
});
