/**
 * A webhook receiver that holds every request open until the test answers it: it stands in for a slow or
 * hanging customer server. It counts the requests open at once (now and at most), per path and in all,
 * and notices when the gateway closes a request it never answered.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeldRequest {
  path: string;
  body: string;
  json: any;
  /** The connection ended, answered or not. */
  closed: boolean;
  answered: boolean;
  answer(status?: number, body?: string): void;
}

export interface HoldingReceiver {
  /** Base URL; endpoints may add any path to it (`${url}/a`, `${url}/b`). */
  url: string;
  requests: HeldRequest[];
  open(path?: string): HeldRequest[];
  /** Open and not answered yet: the requests the test may still answer. */
  waiting(): HeldRequest[];
  /** The most requests that were open at once since the start or the last `resetMaxOpen`. */
  maxOpen: number;
  resetMaxOpen(): void;
  close(): Promise<void>;
}

export async function startHoldingReceiver(): Promise<HoldingReceiver> {
  const requests: HeldRequest[] = [];
  const state = { maxOpen: 0 };
  const openNow = () => requests.filter((r) => !r.closed);
  const server = createServer((req, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const held: HeldRequest = {
      path: req.url ?? '/',
      body: '',
      json: null,
      closed: false,
      answered: false,
      answer(status = 204, body = '') {
        if (held.answered || held.closed) return;
        held.answered = true;
        res.writeHead(status).end(body);
      },
    };
    requests.push(held);
    state.maxOpen = Math.max(state.maxOpen, openNow().length);
    res.on('close', () => {
      held.closed = true;
    });
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      held.body = Buffer.concat(chunks).toString('utf8');
      try {
        held.json = JSON.parse(held.body);
      } catch {}
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    open: (path) => openNow().filter((r) => path === undefined || r.path === path),
    waiting: () => openNow().filter((r) => !r.answered),
    get maxOpen() {
      return state.maxOpen;
    },
    resetMaxOpen() {
      state.maxOpen = openNow().length;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
