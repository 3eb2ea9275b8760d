/**
 * Delivers due webhook deliveries. Each node runs one dispatcher; deliveries are claimed in the database
 * (SKIP LOCKED on PostgreSQL), so nodes share the work and a delivery is attempted by one node at a time.
 * A claim expires: deliveries held by a node that died are picked up again by the others.
 *
 * What is retried and when: retry-schedule.ts. An endpoint that has failed without a single success for
 * `disableAfterMs` is disabled.
 */
import type { Dispatcher as HttpDispatcher } from 'undici';
import { decryptSecret } from '../domain/secrets.ts';
import type { ClaimedDelivery, WebhooksRepo } from '../store/webhooks-repo.ts';
import { postDelivery } from './post-delivery.ts';
import { stepAfterAttempt } from './retry-schedule.ts';
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

const MIN_PASS_INTERVAL_MS = 20;
/** Never aborted: attempts run until they end or time out. */
const NO_STOP = new AbortController().signal;

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
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'Switchboard-Webhooks/1',
      'webhook-id': item.eventId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, item.eventId, timestamp, item.payload),
    };
    const answer = await postDelivery(endpoint.url, headers, item.payload, {
      agent: options.agent,
      timeoutMs: options.timeoutMs,
      stop: NO_STOP,
    });
    const finished = now();
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    await options.repo.recordAttempt(
      {
        delivery_id: delivery.id,
        attempted_at: started,
        status_code: answer.status,
        latency_ms: finished - started,
        response_body: answer.body,
        error: answer.error,
      },
      stepAfterAttempt(answer, delivery.attempt_count + 1, finished, options.retryScheduleMs),
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
