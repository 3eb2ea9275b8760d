/**
 * Delivers due webhook deliveries. Each node runs one dispatcher; deliveries are claimed in the database
 * (SKIP LOCKED on PostgreSQL), so nodes share the work and a delivery is attempted by one node at a time.
 * A claim expires: deliveries held by a node that died are picked up again by the others.
 *
 * Retried: connection errors, timeouts, 408, 429 (honouring Retry-After) and 5xx. Any other answer ends
 * the delivery as failed (the receiver said it will not take it). After the last scheduled retry the
 * delivery is failed; an endpoint that has failed without a single success for `disableAfterMs` is disabled.
 */
import type { Dispatcher as HttpDispatcher } from 'undici';
import { fetch as undiciFetch } from 'undici';
import { decryptSecret } from '../lib/sealed-secrets.ts';
import type { ClaimedDelivery, WebhooksRepo } from '../store/webhooks-repo.ts';
import { withJitter } from './retry-schedule.ts';
import { signatureHeader } from './signing.ts';

export interface DispatcherOptions {
  repo: WebhooksRepo;
  secretKey: Buffer;
  agent: HttpDispatcher;
  retryScheduleMs: number[];
  timeoutMs: number;
  disableAfterMs: number;
  pollMs?: number;
  batchSize?: number;
  /** Longest a claim holds before another node may take the delivery over. */
  lockMs?: number;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  now?: () => number;
}

const RESPONSE_BODY_LIMIT = 1024;
const MIN_PASS_INTERVAL_MS = 20;

function retryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function retryAfterMs(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

export interface WebhookDispatcher {
  start(): void;
  /** Look for due deliveries now (after new events were committed). */
  wake(): void;
  stop(): Promise<void>;
}

export function createDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 250;
  const batchSize = options.batchSize ?? 100;
  const lockMs = options.lockMs ?? options.timeoutMs * 2 + 1000;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let wakeUp: (() => void) | undefined;
  /** Ends the current pause; unlike wakeUp it stays set after a wake, so stop() can always end it. */
  let endPause: (() => void) | undefined;
  let loop: Promise<void> | undefined;
  let lastPassAt = 0;
  /** A wake that came while a pass was running: the next pass must not wait for the poll. */
  let wokenDuringPass = false;

  async function attempt(item: ClaimedDelivery): Promise<void> {
    const { delivery, endpoint } = item;
    const started = now();
    if (endpoint.disabled_at !== null) {
      await options.repo.markDeliveryFailed(delivery.id, started);
      return;
    }
    const secrets = [decryptSecret(endpoint.secret_enc, options.secretKey)];
    if (endpoint.previous_secret_enc && (endpoint.previous_secret_until ?? 0) > started) {
      secrets.push(decryptSecret(endpoint.previous_secret_enc, options.secretKey));
    }
    const timestamp = Math.floor(started / 1000);
    let status: number | null = null;
    let body: string | null = null;
    let error: string | null = null;
    let wait: number | undefined;
    try {
      const response = await undiciFetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Switchboard-Webhooks/1',
          'webhook-id': item.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(secrets, item.eventId, timestamp, item.payload),
        },
        body: item.payload,
        redirect: 'manual',
        dispatcher: options.agent,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      status = response.status;
      body = (await response.text()).slice(0, RESPONSE_BODY_LIMIT);
      wait = retryAfterMs(response.headers.get('retry-after'), started);
    } catch (e) {
      const err = e as Error & { cause?: { code?: string; message?: string } };
      error =
        err.name === 'TimeoutError'
          ? `timeout after ${options.timeoutMs} ms`
          : (err.cause?.code ?? err.cause?.message ?? err.message);
    }
    const finished = now();
    const ok = status !== null && status >= 200 && status < 300;
    const attemptCount = delivery.attempt_count + 1;
    let next: { status: 'succeeded' | 'pending' | 'failed'; nextAttemptAt: number; attemptCount: number };
    if (ok) {
      next = { status: 'succeeded', nextAttemptAt: finished, attemptCount };
    } else if ((status === null || retryable(status)) && attemptCount <= options.retryScheduleMs.length) {
      const delay = Math.max(withJitter(options.retryScheduleMs[attemptCount - 1]!), wait ?? 0);
      next = { status: 'pending', nextAttemptAt: finished + delay, attemptCount };
    } else {
      next = { status: 'failed', nextAttemptAt: finished, attemptCount };
    }
    await options.repo.recordAttempt(
      {
        delivery_id: delivery.id,
        attempted_at: started,
        status_code: status,
        latency_ms: finished - started,
        response_body: body,
        error,
      },
      next,
    );
    if (await options.repo.noteEndpointOutcome(endpoint.id, ok, finished, options.disableAfterMs)) {
      options.logger.warn(
        { endpointId: endpoint.id },
        'webhook endpoint disabled after failing without a success',
      );
    }
  }

  async function runOnce(): Promise<number> {
    const claimed = await options.repo.claimDue(now(), batchSize, lockMs);
    await Promise.all(
      claimed.map((item) =>
        attempt(item).catch((e) =>
          options.logger.error(
            { err: e, deliveryId: item.delivery.id },
            'webhook attempt could not be recorded',
          ),
        ),
      ),
    );
    return claimed.length;
  }

  async function run(): Promise<void> {
    while (running) {
      lastPassAt = now();
      wokenDuringPass = false;
      let handled = 0;
      try {
        handled = await runOnce();
      } catch (e) {
        options.logger.error({ err: e }, 'webhook dispatcher pass failed; retrying');
      }
      if (!running) break;
      if (handled >= batchSize) continue; // more are probably due: no pause
      await new Promise<void>((resolve) => {
        wakeUp = resolve;
        endPause = resolve;
        timer = setTimeout(resolve, wokenDuringPass ? MIN_PASS_INTERVAL_MS : pollMs);
      });
      wakeUp = undefined;
      endPause = undefined;
      clearTimeout(timer);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    wake() {
      // Wakes are coalesced: at most one pass every MIN_PASS_INTERVAL_MS, however many events arrive, so a
      // busy send path does not turn into a claim query per request.
      if (!wakeUp) {
        wokenDuringPass = true;
        return;
      }
      const resolve = wakeUp;
      wakeUp = undefined;
      clearTimeout(timer);
      timer = setTimeout(resolve, Math.max(0, MIN_PASS_INTERVAL_MS - (now() - lastPassAt)));
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      // Not wakeUp: a wake() just before stop() has taken it and its timer is cleared above, so the
      // pause would never end and stop() would wait forever.
      endPause?.();
      await loop;
    },
  };
}
