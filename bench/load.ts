/**
 * What every benchmark row is measured with: autocannon against a URL (or several, spread over the
 * connections), after a short warm-up, and the measured process's peak resident memory.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { DEFAULT_SANDBOX_NUMBER } from '../src/config/config.ts';

export { freePort } from '../test/support/process.ts';

/** Seconds per row (BENCH_SECONDS, default 10). */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

export interface Result {
  name: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  peakRssMb: number | null;
  /** What the non-2xx answers were: `status body…` and how many, so a report can say why. */
  refusals?: Record<string, number>;
  /** A full-loop row (settled-loop.ts): the sends answered per second, as autocannon counted them. */
  answeredPerSecond?: number;
  /** A full-loop row: seconds from the end of the load until every message had its last status. */
  settledAfterSeconds?: number;
}

/** Peak resident memory of a process so far (Linux VmHWM). */
export function peakRssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

export async function load(
  name: string,
  url: string,
  pid: number | undefined,
  headers: Record<string, string>,
  body: (n: number) => string,
  connections: number,
  /** Runs between the warm-up and the measured run (statistics.ts). */
  afterWarmUp?: () => Promise<void>,
): Promise<Result> {
  let n = 0;
  // A short warm-up lets the JIT and connection pools settle before measuring.
  await autocannon({
    url,
    method: 'POST',
    connections,
    duration: 2,
    headers,
    requests: [{ setupRequest: (r) => ({ ...r, body: body(n++) }) }],
  });
  await afterWarmUp?.();
  const refusals: Record<string, number> = {};
  const r = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: SECONDS,
    headers,
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: body(n++) }),
        onResponse: (status, answer) => {
          if (status < 300) return;
          const what = `${status} ${answer.slice(0, 160)}`;
          refusals[what] = (refusals[what] ?? 0) + 1;
        },
      },
    ],
  });
  return {
    name,
    connections,
    requestsPerSecond: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    peakRssMb: peakRssMb(pid),
    ...(Object.keys(refusals).length > 0 ? { refusals } : {}),
  };
}

/**
 * The benchmark's user joins the account's sandbox through the network's simulator, and the rows start
 * only once every gateway in `gatewayUrls` sends to them. The network answers the join when a gateway has
 * taken its webhook, but the gateway applies it a moment later, behind whatever webhooks the network was
 * still posting (a cluster row follows another row's status webhooks): a row started at once saw its first
 * sends refused with 403 "has not joined your sandbox".
 */
export async function joinSandbox(
  networkUrl: string,
  account: { joinCode: string; apiKey: string },
  user: string,
  gatewayUrls: string[],
): Promise<void> {
  const answer = await fetch(`${networkUrl}/simulator/users/${user}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: DEFAULT_SANDBOX_NUMBER, text: `join ${account.joinCode}` }),
  });
  if (answer.status !== 202) throw new Error(`the join was refused: ${await answer.text()}`);
  for (const url of gatewayUrls) await sendsTo(url, account.apiKey, user);
}

/** Sends one message until the gateway takes it (403: not joined yet); fails after a minute. */
async function sendsTo(gatewayUrl: string, apiKey: string, user: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (let attempt = 0; ; attempt++) {
    const r = await fetch(`${gatewayUrl}/api/v1/msg/message/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', apiKey },
      body: JSON.stringify({
        messageId: `joined-${user}-${gatewayUrl}-${attempt}`,
        from: DEFAULT_SANDBOX_NUMBER,
        to: user,
        message: 'joined',
      }),
    });
    const text = await r.text();
    if (r.status === 200) return;
    if (r.status !== 403 || Date.now() > deadline)
      throw new Error(`no send to the joined user: ${r.status} ${text}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
