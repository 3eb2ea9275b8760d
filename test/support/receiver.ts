/** A real local HTTP server that receives webhooks and records them; it can be told to fail. */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** Answer the next `n` requests with `status` (default 503). */
  failNext(n: number, status?: number): void;
  /** Record requests at once but answer none of them until `release()`, as a receiver that is behind. */
  hold(): void;
  /** Answer the held requests, and the ones after them at once. */
  release(): void;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let failures = 0;
  let failStatus = 503;
  let holding = false;
  const held: ServerResponse[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (failures > 0) {
        failures--;
        res.writeHead(failStatus).end('not now');
        return;
      }
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {}
      received.push({ headers: req.headers, body, json });
      if (holding) held.push(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/hooks`,
    received,
    failNext(n, status = 503) {
      failures = n;
      failStatus = status;
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const res of held.splice(0)) res.writeHead(204).end();
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
