/**
 * `GET /users/:phone/events`: the phone's live updates as Server-Sent Events, for the phone page. Each
 * message the phone receives or sends is an `event: message` (data: a ChatMessage of views.ts) and each
 * status change of those messages an `event: status` (data: `{id, direction, business, status, error?}`);
 * a business writing an answer is an `event: typing` (data: `{business, seconds}`).
 * No replay: a page that (re)connects fetches the chat first and then only follows.
 *
 * Bounded: the phone book caps the number of streams, and a stream whose reader stopped reading
 * (MAX_BUFFERED_BYTES waiting) is closed rather than buffered. `close()` ends every stream, so the server
 * can shut down (an open stream is never an idle connection).
 */
import type { FastifyInstance } from 'fastify';
import { normalizePhone } from '../../lib/phone.ts';
import type { PhoneBook, PhoneEvent } from '../phone-book.ts';
import { pathParam } from '../request-fields.ts';
import { type ChatMessage, receivedView, sentView } from './views.ts';

/** A comment line keeps proxies and browsers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** How long the browser waits before reconnecting (the SSE `retry` field). */
const RETRY_MS = 2000;

export interface PhoneStreams {
  /** Ends every open stream and refuses new ones. */
  close(): void;
}

function frame(event: PhoneEvent): string {
  if (event.kind === 'typing') {
    return `event: typing\ndata: ${JSON.stringify({ business: event.business, seconds: event.seconds })}\n\n`;
  }
  if (event.kind === 'status') {
    const view: ChatMessage =
      event.direction === 'received'
        ? receivedView(event.message as Parameters<typeof receivedView>[0])
        : sentView(event.message as Parameters<typeof sentView>[0]);
    const data = {
      id: view.id,
      direction: view.direction,
      business: view.business,
      status: view.status,
      ...(view.error ? { error: view.error } : {}),
    };
    return `event: status\ndata: ${JSON.stringify(data)}\n\n`;
  }
  const view = event.kind === 'received' ? receivedView(event.message) : sentView(event.message);
  return `event: message\ndata: ${JSON.stringify(view)}\n\n`;
}

export function registerPhoneEvents(app: FastifyInstance, phones: PhoneBook): PhoneStreams {
  const open = new Set<() => void>();
  let closed = false;

  app.get('/users/:phone/events', async (request, reply) => {
    const raw = pathParam(request.params, 'phone');
    const user = normalizePhone(raw);
    if (!user) {
      return reply.code(400).send({
        error: { message: `\`phone\` in the path is not a valid phone number with country code: "${raw}"` },
      });
    }
    if (closed) return reply.code(503).send({ error: { message: 'the simulator is shutting down' } });

    const res = reply.raw;
    let ended = false;
    let heartbeat: NodeJS.Timeout | undefined;
    const write = (text: string) => {
      if (ended) return;
      res.write(text);
      // A reader that stopped reading is dropped; its page reconnects and fetches the chat again.
      if (res.writableLength > MAX_BUFFERED_BYTES) end();
    };
    const unsubscribe = phones.subscribe(user, (event) => write(frame(event)));
    if (!unsubscribe) {
      return reply
        .code(429)
        .send({ error: { message: 'too many live streams are open for this phone or this simulator' } });
    }
    function end() {
      if (ended) return;
      ended = true;
      clearInterval(heartbeat);
      unsubscribe?.();
      open.delete(end);
      res.end();
    }
    open.add(end);
    reply.hijack();
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n: connected to ${user}\n\n`);
    heartbeat = setInterval(() => write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', end);
  });

  return {
    close() {
      closed = true;
      for (const end of [...open]) end();
    },
  };
}
