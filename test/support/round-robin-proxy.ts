/**
 * A round-robin reverse proxy, as a load balancer in front of several gateway nodes: method, path, headers
 * and body forwarded as they came, each request to the next backend in turn. Used by the multi-node suites
 * and by the cluster benchmark (bench/cluster.ts).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Where requests go, in turn. */
  backends: string[];
  /** How many requests each backend got. */
  served: Map<string, number>;
  close(): Promise<void>;
}

/** A round-robin reverse proxy: method, path, headers and body forwarded as they came. */
export async function startProxy(listenPort = 0): Promise<RoundRobinProxy> {
  const backends: string[] = [];
  const served = new Map<string, number>();
  let next = 0;
  const server: Server = createServer((req, res) => {
    const backend = backends[next++ % backends.length]!;
    served.set(backend, (served.get(backend) ?? 0) + 1);
    const upstream = httpRequest(
      new URL(req.url ?? '/', backend),
      { method: req.method, headers: req.headers },
      (answer) => {
        // Hop-by-hop headers describe the proxy-to-node connection, not this one (as any proxy does):
        // relaying the node's `Keep-Alive: timeout=72` would make the client reuse a connection this
        // server closes after its own 5 s, and a request on it fails ("fetch failed").
        const { connection: _c, 'keep-alive': _k, ...headers } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${error.message}`);
    });
    req.pipe(upstream);
  });
  // Idle connections are kept for a minute (as load balancers do), not Node's 5 s: a client learns the
  // timeout from the answer and gives a connection up a little before it, by its own timers, which a busy
  // machine runs late; with a short timeout the client could still reuse a connection this server had
  // just closed, and its request would fail with ECONNRESET. Closing the proxy closes them all.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(listenPort, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    backends,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
