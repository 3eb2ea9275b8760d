/** A real local HTTP server that receives webhooks and records them; it can be told to fail. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
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
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = [];
  let failures = 0;
  let failStatus = 503;
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
      res.writeHead(204).end();
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
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
