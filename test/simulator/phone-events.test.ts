/**
 * The phone's live stream (`GET /simulator/users/:phone/events`, Server-Sent Events) over real HTTP: a
 * business send arrives as a `message` event, its status changes as `status` events, the user's own
 * messages and their statuses too; the stream ends when the simulator closes.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { MAX_LISTENERS_PER_PHONE } from '../../src/simulator/phone-book.ts';
import {
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  openWindow,
  request,
  startHarness,
  TOKEN,
  USER,
  userSays,
  VERSION,
} from './harness.ts';

interface SseEvent {
  event: string;
  data: any;
}

interface Stream {
  status: number;
  contentType: string | null;
  events: SseEvent[];
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  abort(): void;
}

/** Opens the stream with fetch and parses its frames as they arrive (`event:` and `data:` lines). */
async function openStream(h: Harness, user = USER): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${h.base}/users/${user}/events`, { signal: controller.signal });
  const events: SseEvent[] = [];
  const ended = (async () => {
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(frame)?.[1];
          const data = /^data: (.*)$/m.exec(frame)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
          end = buffer.indexOf('\n\n');
        }
      }
    } catch (error) {
      if ((error as Error).name !== 'AbortError') throw error;
    }
  })();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    events,
    ended,
    abort: () => controller.abort(),
  };
}

describe('phone live stream', () => {
  let h: Harness;
  const streams: Stream[] = [];
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => {
    for (const s of streams.splice(0)) s.abort();
    await h.close();
  });

  test('a business send arrives as a message event, then its statuses up to read', async () => {
    await openWindow(h);
    const stream = await openStream(h);
    streams.push(stream);
    assert.equal(stream.status, 200);
    assert.match(stream.contentType ?? '', /^text\/event-stream/);

    const sent = await graphSend(h, { type: 'text', text: { body: 'Your order shipped' } });
    assert.equal(sent.status, 200);
    const id = sent.body.messages[0].id;

    const message = await eventually(() =>
      stream.events.find((e) => e.event === 'message' && e.data.id === id),
    );
    assert.equal(message.data.direction, 'in');
    assert.equal(message.data.business, BUSINESS);
    assert.equal(message.data.type, 'text');
    assert.equal(message.data.rendered, 'Your order shipped');
    assert.deepEqual(message.data.content, { type: 'text', text: { body: 'Your order shipped' } });
    assert.equal(message.data.status, 'sent');

    const statuses = await eventually(() => {
      const seen = stream.events.filter((e) => e.event === 'status' && e.data.id === id);
      return seen.length >= 2 ? seen : undefined;
    });
    // `sent` is the message's status when it arrives; the stream then reports each change, in order.
    assert.deepEqual(
      statuses.map((e) => e.data),
      [
        { id, direction: 'in', business: BUSINESS, status: 'delivered' },
        { id, direction: 'in', business: BUSINESS, status: 'read' },
      ],
    );
  });

  test("the user's own message arrives, then delivered when the business took it, then read when marked read", async () => {
    const stream = await openStream(h);
    streams.push(stream);
    const said = await userSays(h, { text: 'join amber-falcon-123' });
    assert.equal(said.status, 202);
    const id = said.body.id;

    const message = await eventually(() =>
      stream.events.find((e) => e.event === 'message' && e.data.id === id),
    );
    assert.equal(message.data.direction, 'out');
    assert.equal(message.data.business, BUSINESS);
    assert.equal(message.data.rendered, 'join amber-falcon-123');
    assert.equal(message.data.status, 'sent');
    await eventually(() =>
      stream.events.find((e) => e.event === 'status' && e.data.id === id && e.data.status === 'delivered'),
    );

    const read = await request(`${h.base}/${VERSION}/${BUSINESS}/messages`, {
      body: { messaging_product: 'whatsapp', status: 'read', message_id: id },
      token: TOKEN,
    });
    assert.equal(read.status, 200);
    const status = await eventually(() =>
      stream.events.find((e) => e.event === 'status' && e.data.id === id && e.data.status === 'read'),
    );
    assert.deepEqual(status.data, { id, direction: 'out', business: BUSINESS, status: 'read' });

    const chat = await request(`${h.base}/users/${USER}/chat?with=${BUSINESS}`);
    assert.equal(chat.status, 200);
    assert.equal(chat.body.messages.find((m: any) => m.id === id).status, 'read');
  });

  test('a send outside the window arrives failed, with the error', async () => {
    const stream = await openStream(h);
    streams.push(stream);
    const sent = await graphSend(h, { type: 'text', text: { body: 'Too late' } });
    assert.equal(sent.status, 200);
    const message = await eventually(() =>
      stream.events.find((e) => e.event === 'message' && e.data.id === sent.body.messages[0].id),
    );
    assert.equal(message.data.status, 'failed');
    assert.equal(message.data.error.code, 131047);
  });

  test("a stream hears only its own phone's events", async () => {
    const other = '254712000001';
    await openWindow(h);
    const stream = await openStream(h, other);
    streams.push(stream);
    const mine = await openStream(h);
    streams.push(mine);
    const sent = await graphSend(h, { type: 'text', text: { body: 'For the first phone' } });
    await eventually(() => mine.events.find((e) => e.data.id === sent.body.messages[0].id));
    await eventually(() =>
      mine.events.find((e) => e.event === 'status' && e.data.id === sent.body.messages[0].id),
    );
    assert.deepEqual(stream.events, []);
  });

  test('the stream ends when the simulator closes', async () => {
    const stream = await openStream(h);
    await h.simulator.close();
    await stream.ended;
    // A stream opened after close is refused rather than kept open.
    const late = await request(`${h.base}/users/${USER}/events`);
    assert.equal(late.status, 503);
    assert.match(late.body.error.message, /shutting down/);
  });

  test('the stream ends when the server closes (so a gateway shuts down with pages open)', async () => {
    const stream = await openStream(h);
    await h.app.close();
    await stream.ended;
  });

  test('a bad phone is a 400 naming it; past the per-phone limit of streams a 429', async () => {
    const bad = await request(`${h.base}/users/not-a-phone/events`);
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /`phone` in the path is not a valid phone number/);

    for (let i = 0; i < MAX_LISTENERS_PER_PHONE; i++) {
      const s = await openStream(h);
      streams.push(s);
      assert.equal(s.status, 200);
    }
    const refused = await request(`${h.base}/users/${USER}/events`);
    assert.equal(refused.status, 429);
    assert.match(refused.body.error.message, /too many live streams/);

    // A closed stream frees its place.
    streams.pop()!.abort();
    const again = await eventually(async () => {
      const s = await openStream(h);
      if (s.status === 200) return s;
      s.abort();
      return undefined;
    });
    streams.push(again);
  });
});
