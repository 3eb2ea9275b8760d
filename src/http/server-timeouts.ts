/**
 * How long a client may hold a connection (docs/configuration.md, Timeouts). Without these, a client that
 * sends its body a byte at a time, or never finishes its headers, keeps a socket open for ever.
 * - REQUEST_TIMEOUT_MS bounds receiving the whole request, headers and body (Node answers 408 and closes);
 *   it ends once the request is in, so long responses (the phone page's live stream) are not cut.
 * - HEADERS_TIMEOUT_MS bounds the request line and headers.
 * - IDLE_TIMEOUT_MS closes a connection on which nothing moves, such as a reader that stopped reading a
 *   download; the live stream writes a comment every 15 s, and config refuses a value shorter than the
 *   longest wait of a send on the network.
 * - KEEP_ALIVE_TIMEOUT_MS closes an idle kept-alive connection between requests.
 */
import type { Server } from 'node:http';
import type { Config } from '../config/config.ts';

/** Node checks the request and headers deadlines on a timer (30 s by default): often enough to keep them. */
function checkingIntervalMs(timeouts: Config['http']): number {
  const shortest = Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs);
  return Math.max(25, Math.min(5_000, Math.floor(shortest / 4)));
}

/** Fastify's own options: it hands them to the server it creates. */
export function fastifyTimeouts(timeouts: Config['http']) {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    connectionTimeout: timeouts.idleTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
  };
}

/** What Fastify has no option for; set before listen, which is when Node starts its deadline checks. */
export function applyServerTimeouts(server: Server, timeouts: Config['http']): void {
  server.headersTimeout = timeouts.headersTimeoutMs;
  // A constructor option in Node's typings, but read from the server when it starts listening.
  const checked: Server & { connectionsCheckingInterval?: number } = server;
  checked.connectionsCheckingInterval = checkingIntervalMs(timeouts);
}
