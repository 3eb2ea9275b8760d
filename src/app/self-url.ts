import type { FastifyInstance } from 'fastify';

/**
 * Each server's own URL once it listens: a Fastify server listens once, so its address does not change,
 * and reading it is a system call that the embedded default made for every webhook post and every send
 * (1.4 % of its CPU in the full loop, bench/README.md).
 */
const known = new WeakMap<object, string>();

/**
 * The address this process listens on, for its calls to itself (the in-process simulator's Graph API and
 * webhooks; known only after listen): loopback when it listens on every interface, else the one address
 * HOST names (an IPv6 loopback, or a LAN address the operator chose, which 127.0.0.1 would not reach).
 */
export function selfUrl(app: FastifyInstance, fallbackPort: number): string {
  const cached = known.get(app.server);
  if (cached) return cached;
  const address = app.server.address();
  if (typeof address !== 'object' || !address) return `http://127.0.0.1:${fallbackPort}`;
  const ipv6 = address.family === 'IPv6';
  let host = address.address;
  if (host === '0.0.0.0' || host === '::') host = ipv6 ? '::1' : '127.0.0.1';
  const url = `http://${ipv6 ? `[${host}]` : host}:${address.port}`;
  known.set(app.server, url);
  return url;
}
