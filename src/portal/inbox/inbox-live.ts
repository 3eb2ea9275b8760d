/**
 * Live updates of the inbox (docs/inbox.md) as server-sent events: `/app/inbox/live` for the list and
 * `/app/inbox/:id/live` for one conversation. Each stream reads the store's version of what its page
 * shows (ports/inbox.ts `version`) every two seconds and sends `change` when it moved; the page script
 * then fetches the page again and swaps its live parts. Reading the shared store, not this process's
 * memory, is what makes it work whichever node took the message. A stream ends after five minutes (the
 * browser reconnects, through the sign-in check again, so a removed member stops hearing within that
 * time) and when the gateway shuts down; an account holds at most MAX_PER_ACCOUNT at once.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { conversationOf } from '../../domain/inbox/inbox-service.ts';
import { type PortalDeps, sessionOf } from '../deps.ts';
import { param } from '../forms.ts';

const POLL_MS = 2_000;
const LIFETIME_MS = 5 * 60_000;
const MAX_PER_ACCOUNT = 20;

interface Stream {
  accountId: string;
  end(): void;
}

function openStream(
  streams: Set<Stream>,
  request: FastifyRequest,
  reply: FastifyReply,
  version: () => Promise<string>,
): void {
  const { accountId } = sessionOf(request);
  const raw = reply.raw;
  reply.hijack();
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    connection: 'keep-alive',
  });
  raw.write('retry: 2000\n\n');
  let last: string | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stream: Stream = {
    accountId,
    end() {
      clearTimeout(timer);
      clearTimeout(lifetime);
      streams.delete(stream);
      if (!raw.writableEnded) raw.end();
    },
  };
  const lifetime = setTimeout(() => stream.end(), LIFETIME_MS);
  const poll = async () => {
    try {
      const now = await version();
      if (last !== undefined && now !== last) raw.write(`event: change\ndata: ${Date.now()}\n\n`);
      last = now;
    } catch (error) {
      request.log.warn({ err: error }, 'an inbox live update could not be read; the stream ends');
      stream.end();
      return;
    }
    if (streams.has(stream)) timer = setTimeout(poll, POLL_MS);
  };
  streams.add(stream);
  request.raw.on('close', () => stream.end());
  void poll();
}

export function registerInboxLive(portal: FastifyInstance, deps: PortalDeps): void {
  const streams = new Set<Stream>();
  // An open stream would hold the server's close until its lifetime ends.
  portal.addHook('preClose', async () => {
    for (const stream of [...streams]) stream.end();
  });
  const tooMany = (accountId: string) =>
    [...streams].filter((s) => s.accountId === accountId).length >= MAX_PER_ACCOUNT;

  portal.get('/inbox/live', async (request, reply) => {
    const { accountId } = sessionOf(request);
    if (tooMany(accountId)) return reply.code(429).type('text/plain').send('Too many live views are open.');
    openStream(streams, request, reply, () => deps.inbox.inbox.version(accountId));
  });

  portal.get('/inbox/:id/live', async (request, reply) => {
    const { accountId } = sessionOf(request);
    const conversation = await conversationOf(deps.inbox, accountId, param(request.params, 'id'));
    if (tooMany(accountId)) return reply.code(429).type('text/plain').send('Too many live views are open.');
    openStream(streams, request, reply, () => deps.inbox.inbox.version(accountId, conversation));
  });
}
