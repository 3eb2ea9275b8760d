/**
 * A maintained Cloud API client from npm (whatsapp-api-js), written against Meta's API and pointed at the
 * simulator only through its fetch (graph.facebook.com is rewritten to the simulator): every operation it
 * has that the simulated network offers must work as against Meta. Sends of every message type it builds
 * (text, media by link and by uploaded id, location, contacts, reaction and its removal, buttons, list,
 * call-to-action URL, flow, template), to a number and to a business-scoped user id; mark as read with a
 * typing indicator; media upload, retrieve, download and delete; and its webhook reader, which verifies
 * the simulator's signature and finds the sender of a message, by number or by id alone.
 *
 * QR codes (create, list, read, change, delete), blocking users (block, unblock; a blocked user's
 * messages no longer reach the business) and calls (the business calls a user who answers; a user calls
 * the business, which pre-accepts, accepts, ends, or rejects) run too: every operation of the client.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { WhatsAppAPI } from 'whatsapp-api-js';
import {
  ActionButtons,
  ActionCTA,
  ActionList,
  ActionNavigateFlow,
  Audio,
  Body,
  BodyComponent,
  BodyParameter,
  Button,
  Contacts,
  Document,
  Image,
  Interactive,
  ListSection,
  Location,
  Name,
  Phone,
  Reaction,
  Row,
  Sticker,
  Template,
  Text,
  Video,
} from 'whatsapp-api-js/messages';
import {
  BUSINESS,
  eventually,
  type Harness,
  inboundHooks,
  request,
  SECRET,
  startHarness,
  TOKEN,
  USER,
  VERSION,
} from './harness.ts';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SIGN_UP_FLOW = readFileSync(new URL('../../examples/flows/sign-up.json', import.meta.url), 'utf8');

describe('a Cloud API client from npm against the simulator', () => {
  let h: Harness;
  let wa: WhatsAppAPI;

  /** What the user wrote, through the simulator's phone: the window opens, the webhook goes out. */
  const userSays = async (body: Record<string, unknown>) => {
    const r = await request(`${h.base}/users/${USER}/messages`, { body: { to: BUSINESS, ...body } });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    return String(r.body.id);
  };
  const onPhone = async () => (await request(`${h.base}/users/${USER}/messages`)).body.messages as any[];

  before(async () => {
    h = await startHarness({ statusDelayMs: 5 });
    const graph = 'https://graph.facebook.com/';
    const simulated = `${h.base}/`;
    wa = new WhatsAppAPI({
      token: TOKEN,
      appSecret: SECRET,
      v: VERSION,
      ponyfill: {
        // The only change to the client: where graph.facebook.com is.
        fetch: (input, init) => {
          const url = String(input instanceof URL ? input.href : input);
          return fetch(url.startsWith(graph) ? simulated + url.slice(graph.length) : url, init);
        },
      },
    });
  });
  after(() => h.close());

  test('sends of every type it builds, each answered with a message id and shown on the phone', async () => {
    const wrote = await userSays({ text: 'Hello' });
    const upload = new FormData();
    upload.set('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
    const uploaded = (await wa.uploadMedia(BUSINESS, upload)) as { id: string };
    assert.match(uploaded.id, /^\d+$/);

    const messages = [
      new Text('Your order has shipped'),
      new Image('https://cdn.example.org/receipt.png', false, 'Receipt'),
      new Image(uploaded.id, true, 'Uploaded'),
      new Video('https://cdn.example.org/clip.mp4', false, 'Clip'),
      new Audio('https://cdn.example.org/note.ogg'),
      new Document('https://cdn.example.org/invoice.pdf', false, 'Invoice', 'invoice.pdf'),
      new Sticker('https://cdn.example.org/sticker.webp'),
      new Location(36.8219, -1.2921, 'Shop', 'Kenyatta Ave 1'),
      new Contacts([new Name('Grace Wanjiru', 'Grace'), new Phone('+254700000001', 'CELL')]),
      new Reaction(wrote, '👍'),
      new Interactive(
        new ActionButtons(new Button('yes', 'Yes'), new Button('no', 'No')),
        new Body('Confirm?'),
      ),
      new Interactive(
        new ActionList(
          'Pick a slot',
          new ListSection('Tomorrow', new Row('am', 'Morning'), new Row('pm', 'Afternoon')),
        ),
        new Body('When should we deliver?'),
      ),
      new Interactive(new ActionCTA('Track', 'https://shop.example.org/t/42'), new Body('Track your order')),
    ];
    for (const message of messages) {
      const answer = (await wa.sendMessage(BUSINESS, USER, message)) as { messages?: { id: string }[] };
      assert.match(answer.messages?.[0]?.id ?? '', /^wamid\./, `${message._type}: ${JSON.stringify(answer)}`);
    }
    const removed = (await wa.sendMessage(BUSINESS, USER, new Reaction(wrote))) as { messages?: unknown[] };
    assert.equal(removed.messages?.length, 1, 'a reaction removed');
    const shown = await eventually(async () => {
      const received = await onPhone();
      return received.length >= messages.length + 1 ? received : undefined;
    });
    assert.ok(shown.some((m) => m.rendered.includes('Your order has shipped')));
    assert.ok(shown.some((m) => m.type === 'interactive' && m.interactive_type === 'list'));
  });

  test('a flow and an approved template, created on the network, are sent', async () => {
    await userSays({ text: 'window' });
    const created = await request(`${h.base}/${VERSION}/${BUSINESS}/flows`, {
      token: TOKEN,
      body: { name: 'Sign up', categories: ['SIGN_UP'], flow_json: SIGN_UP_FLOW },
    });
    const flowId = String(created.body.id);
    assert.equal(
      (await request(`${h.base}/${VERSION}/${flowId}/publish`, { token: TOKEN, body: {} })).status,
      200,
    );
    const flow = new Interactive(
      new ActionNavigateFlow('token-1', flowId, 'Start', 'SIGN_UP'),
      new Body('Please sign up'),
    );
    assert.match(((await wa.sendMessage(BUSINESS, USER, flow)) as any).messages[0].id, /^wamid\./);

    const template = await request(`${h.base}/${VERSION}/${BUSINESS}/message_templates`, {
      token: TOKEN,
      body: {
        name: 'client_order',
        language: 'en_US',
        category: 'UTILITY',
        components: [
          { type: 'BODY', text: 'Hi {{1}}, your order is ready today.', example: { body_text: [['Jane']] } },
        ],
      },
    });
    assert.equal((await request(`${h.base}/templates/${template.body.id}/review`, { body: {} })).status, 200);
    const send = new Template('client_order', 'en_US', new BodyComponent(new BodyParameter('Jane')));
    assert.match(((await wa.sendMessage(BUSINESS, USER, send)) as any).messages[0].id, /^wamid\./);
    const shown = await eventually(async () => (await onPhone()).find((m) => m.rendered.includes('Hi Jane')));
    assert.equal(shown.type, 'template');
  });

  test('mark as read with a typing indicator', async () => {
    const wrote = await userSays({ text: 'Are you there?' });
    assert.deepEqual(await wa.markAsRead(BUSINESS, wrote, 'text'), { success: true });
  });

  test('media: upload, retrieve, download with the token, delete', async () => {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
    const { id } = (await wa.uploadMedia(BUSINESS, form)) as { id: string };
    const media = (await wa.retrieveMedia(id)) as unknown as {
      url: string;
      mime_type: string;
      file_size: number;
      id: string;
    };
    assert.equal(media.id, id);
    assert.equal(media.mime_type, 'image/png');
    assert.equal(Number(media.file_size), PNG.length);
    const file = await wa.fetchMedia(media.url);
    assert.equal(file.status, 200);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), PNG);
    assert.deepEqual(await wa.deleteMedia(id), { success: true });
    const gone = await wa.retrieveMedia(id);
    assert.equal((gone as { error?: { code: number } }).error?.code, 100);
  });

  test('its webhook reader verifies the simulator and finds the sender, by number or by id alone', async () => {
    const seen: { phone?: string; bsuid?: string; text?: string }[] = [];
    wa.on.message = ({ recipient, message }) => {
      const r = recipient as { phone?: string; bsuid?: string };
      seen.push({
        phone: r.phone,
        bsuid: r.bsuid,
        text: (message as { text?: { body: string } }).text?.body,
      });
    };
    const byNumber = await userSays({ text: 'read me by number', username: 'amina.k' });
    const byIdOnly = await userSays({ text: 'read me by id', username: 'amina.k', hideNumber: true });
    for (const id of [byNumber, byIdOnly]) {
      const hook = await eventually(() => inboundHooks(h).find((x) => x.body.includes(id)));
      // Throws unless the signature verifies.
      await wa.post(JSON.parse(hook.body), hook.body, String(hook.headers['x-hub-signature-256']));
    }
    await assert.rejects(
      wa.post({ object: 'whatsapp_business_account', entry: [] }, '{"forged":true}', 'sha256=00'),
      'a wrong signature is refused by the client',
    );
    const [number, idOnly] = seen;
    assert.equal(number?.phone, USER);
    assert.match(number?.bsuid ?? '', /^KE\.\d{20}$/);
    assert.equal(idOnly?.phone, undefined);
    assert.equal(idOnly?.bsuid, number?.bsuid);
    assert.equal(idOnly?.text, 'read me by id');

    // The client answers a user known only by id through `recipient`.
    const reply = (await wa.sendMessage(BUSINESS, idOnly?.bsuid ?? '', new Text('Answered by id'))) as any;
    assert.deepEqual(reply.contacts, [{ input: idOnly?.bsuid, user_id: idOnly?.bsuid }]);
    await eventually(async () => (await onPhone()).some((m) => m.rendered === 'Answered by id'));
  });

  test('QR codes: create, list, read, change, delete', async () => {
    const created = (await wa.createQR(BUSINESS, 'I want to order')) as any;
    assert.match(created.code, /^[A-Z0-9]{14}$/);
    assert.equal(created.deep_link_url, `https://wa.me/message/${created.code}`);
    assert.equal(created.prefilled_message, 'I want to order');
    assert.equal(((await wa.retrieveQR(BUSINESS)) as any).data.length, 1);
    const changed = (await wa.updateQR(BUSINESS, created.code, 'I want a table')) as any;
    assert.equal(changed.prefilled_message, 'I want a table');
    assert.equal(
      ((await wa.retrieveQR(BUSINESS, created.code)) as any).data[0].prefilled_message,
      'I want a table',
    );
    assert.deepEqual(await wa.deleteQR(BUSINESS, created.code), { success: true });
    assert.equal(((await wa.retrieveQR(BUSINESS, created.code)) as any).error.code, 100);
  });

  test('blocking: a blocked user no longer reaches the business; unblocked, they do again', async () => {
    const blocked = (await wa.blockUser(BUSINESS, USER)) as any;
    assert.deepEqual(blocked.block_users.added_users, [{ input: USER, wa_id: USER }]);
    const before = inboundHooks(h).length;
    await userSays({ text: 'can you hear me?' });
    const unblocked = (await wa.unblockUser(BUSINESS, USER)) as any;
    assert.deepEqual(unblocked.block_users.removed_users, [{ input: USER, wa_id: USER }]);
    const heard = await userSays({ text: 'and now?' });
    await eventually(() => inboundHooks(h).some((x) => x.body.includes(heard)));
    assert.ok(
      !inboundHooks(h)
        .slice(before)
        .some((x) => x.body.includes('can you hear me?')),
    );
  });

  /** The `calls` changes the business received for one call, in order. */
  const callEvents = (id: string) =>
    h.receiver.received
      .filter((x) => x.json.entry[0].changes[0].field === 'calls')
      .map((x) => x.json.entry[0].changes[0].value)
      .flatMap((v) => [...(v.calls ?? []), ...(v.statuses ?? [])])
      .filter((c) => c.id === id)
      .map((c) => c.event ?? c.status);

  test('calls: the business calls a user who answers, then ends it; it needs the user to be in reach', async () => {
    await userSays({ text: 'call me' });
    const offer = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n';
    const started = (await wa.initiateCall(BUSINESS, USER, offer, 'call-tag')) as any;
    const id = started.calls[0].id as `wacid.${string}`;
    assert.match(id, /^wacid\./);
    await eventually(() => callEvents(id).includes('ACCEPTED'));
    assert.deepEqual(callEvents(id), ['RINGING', 'connect', 'ACCEPTED']);
    assert.deepEqual(await wa.terminateCall(BUSINESS, id), { messaging_product: 'whatsapp', success: true });
    await eventually(() => callEvents(id).includes('terminate'));
    const ended = h.receiver.received
      .flatMap((x) => x.json.entry[0].changes[0].value.calls ?? [])
      .find((c: any) => c.id === id && c.event === 'terminate');
    assert.equal(ended.status, 'COMPLETED');
    assert.equal(ended.biz_opaque_callback_data, 'call-tag');

    const stranger = (await wa.initiateCall(BUSINESS, '254799999999', offer)) as any;
    assert.equal(stranger.error.code, 138006);
  });

  test('calls: a user calls; the business pre-accepts, accepts and ends one, rejects another', async () => {
    const answer = 'v=0\r\no=- 2 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n';
    const ring = async () => {
      const r = await request(`${h.base}/users/${USER}/calls`, { body: { to: BUSINESS } });
      assert.equal(r.status, 202, JSON.stringify(r.body));
      await eventually(() => callEvents(r.body.id).includes('connect'));
      return r.body.id as `wacid.${string}`;
    };
    const first = await ring();
    const ok = { messaging_product: 'whatsapp', success: true };
    assert.deepEqual(await wa.preacceptCall(BUSINESS, first, answer), ok);
    assert.deepEqual(await wa.acceptCall(BUSINESS, first, answer), ok);
    assert.deepEqual(await wa.terminateCall(BUSINESS, first), ok);
    const second = await ring();
    assert.deepEqual(await wa.rejectCall(BUSINESS, second), ok);
    await eventually(() => callEvents(second).includes('terminate'));
    assert.equal(((await wa.acceptCall(BUSINESS, second, answer)) as any).error.code, 100, 'an ended call');
  });
});
