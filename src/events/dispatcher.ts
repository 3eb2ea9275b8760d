/**
 * Delivers due webhook deliveries. Each node runs one dispatcher; deliveries are claimed in the database
 * (store/delivery-claims.ts), so nodes share the work and a delivery is attempted by one node at a time.
 * A claim expires: deliveries held by a node that died are picked up again by the others.
 *
 * Deliveries run independently, each in a slot of this node (delivery-slots.ts, docs/adr/0015): a claim
 * takes only what fits in the free slots, in all, per account and per endpoint, and every finished attempt
 * frees its slot for the next claim at once. A receiver that hangs holds its own slots until the timeout,
 * never anyone else's deliveries.
 *
 * What is retried and when: retry-schedule.ts. An endpoint that has failed without a single success for
 * `disableAfterMs` is disabled.
 */
import type { Dispatcher as HttpDispatcher } from 'undici';
import { decryptSecret } from '../domain/secrets.ts';
import type { ClaimedDelivery, ClaimResult } from '../store/delivery-claims.ts';
import type { WebhooksRepo } from '../store/webhooks-repo.ts';
import { DeliverySlots, type SlotLimits } from './delivery-slots.ts';
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
  concurrency: SlotLimits;
  pollMs?: number;
  /** Longest a claim holds before another node may take the delivery over. */
  lockMs?: number;
  /** How long stop() lets attempts in flight finish before it cuts them. */
  stopGraceMs?: number;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  now?: () => number;
}

const MIN_CLAIM_INTERVAL_MS = 20;

export interface WebhookDispatcher {
  start(): void;
  /** Look for due deliveries now (after new events were committed). */
  wake(): void;
  /** Stops claiming; attempts in flight get a short grace, then are cut and their claims given back. */
  stop(): Promise<void>;
}

/** The signed headers of one attempt (docs/webhooks.md, the event envelope). */
function deliveryHeaders(item: ClaimedDelivery, secretKey: Buffer, at: number): Record<string, string> {
  const { endpoint } = item;
  const secrets = [decryptSecret(endpoint.secret_enc, secretKey)];
  if (endpoint.previous_secret_enc && (endpoint.previous_secret_until ?? 0) > at) {
    secrets.push(decryptSecret(endpoint.previous_secret_enc, secretKey));
  }
  const timestamp = Math.floor(at / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Switchboard-Webhooks/1',
    'webhook-id': item.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, item.eventId, timestamp, item.payload),
  };
}

export function createDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { repo, logger } = options;
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 250;
  const lockMs = options.lockMs ?? options.timeoutMs * 2 + 1000;
  const stopGraceMs = options.stopGraceMs ?? 2000;
  const slots = new DeliverySlots(options.concurrency);
  const active = new Map<string, { stop: AbortController; done: Promise<void> }>();
  let running = false;
  let claiming: Promise<void> | undefined;
  /** Something changed while a claim ran (a slot freed, a wake came): claim again when it ends. */
  let claimAgain = false;
  let claimQueued = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Number.POSITIVE_INFINITY;
  let lastClaimAt = 0;

  async function attempt(item: ClaimedDelivery, stop: AbortSignal): Promise<void> {
    const { delivery, endpoint } = item;
    const started = now();
    if (endpoint.disabled_at !== null) {
      await repo.markDeliveryFailed(delivery.id, started);
      return;
    }
    const headers = deliveryHeaders(item, options.secretKey, started);
    const answer = await postDelivery(endpoint.url, headers, item.payload, {
      agent: options.agent,
      timeoutMs: options.timeoutMs,
      stop,
    });
    if (answer.stopped) {
      // Cut by the shutdown before the receiver answered: not an attempt; the delivery goes out again.
      await repo.releaseClaims([delivery.id]);
      return;
    }
    const finished = now();
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    slots.noteOutcome(endpoint.id, ok);
    const step = stepAfterAttempt(answer, delivery.attempt_count + 1, finished, options.retryScheduleMs);
    await repo.recordAttempt(
      {
        delivery_id: delivery.id,
        attempted_at: started,
        status_code: answer.status,
        latency_ms: finished - started,
        response_body: answer.body,
        error: answer.error,
      },
      step,
    );
    if (await repo.noteEndpointOutcome(endpoint.id, ok, finished, options.disableAfterMs)) {
      logger.warn({ endpointId: endpoint.id }, 'webhook endpoint disabled after failing without a success');
    }
  }

  function start(item: ClaimedDelivery): void {
    const { delivery, endpoint } = item;
    slots.take(delivery.account_id, endpoint.id, endpoint.failing_since);
    const stop = new AbortController();
    const done = attempt(item, stop.signal)
      .catch((e) =>
        logger.error({ err: e, deliveryId: delivery.id }, 'webhook attempt could not be recorded'),
      )
      .finally(() => {
        active.delete(delivery.id);
        if (slots.give(delivery.account_id, endpoint.id)) claimAfterTurn();
      });
    active.set(delivery.id, { stop, done });
  }

  /** Claims while there are free slots and due deliveries that fit them. */
  async function claimWhileRoom(): Promise<void> {
    do {
      claimAgain = false;
      if (slots.free === 0) break; // the next slot to free up claims again
      lastClaimAt = now();
      let result: ClaimResult;
      try {
        result = await repo.claimDue({ now: lastClaimAt, lockMs, ...slots.planClaim() });
      } catch (e) {
        logger.error({ err: e }, 'webhook deliveries could not be claimed; retrying');
        break;
      }
      if (!running) {
        await repo.releaseClaims(result.claimed.map((c) => c.delivery.id));
        return;
      }
      for (const item of result.claimed) start(item);
      // A full window may have left due deliveries unread behind endpoints that are now at their cap; a
      // node that claimed some of the same rows first may have left others.
      if (result.more || result.lost > 0) {
        if (result.claimed.length > 0) claimAgain = true;
        else schedule(MIN_CLAIM_INTERVAL_MS); // lost them all: give that node time to finish its claim
      }
    } while (running && claimAgain);
  }

  /** Claims now, or has the claim in progress go again once it ends. */
  function claim(): void {
    if (!running) return;
    if (claiming) {
      claimAgain = true;
      return;
    }
    claiming = claimWhileRoom()
      .catch((e) => logger.error({ err: e }, 'webhook dispatcher claim failed; retrying'))
      .finally(() => {
        claiming = undefined;
        schedule(pollMs); // retries fall due with time, without any wake
      });
  }

  /**
   * Claims once this turn of the event loop is over: the attempts that ended in it (recorded in one group
   * commit on SQLite, docs/adr/0007) share one claim for the slots they freed.
   */
  function claimAfterTurn(): void {
    if (claimQueued) return;
    claimQueued = true;
    setImmediate(() => {
      claimQueued = false;
      claim();
    });
  }

  /** A claim in `delayMs` at the latest: one timer, moved earlier, never later. */
  function schedule(delayMs: number): void {
    if (!running) return;
    const at = now() + delayMs;
    if (timer !== undefined && timerAt <= at) return;
    clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      claim();
    }, delayMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      claim();
    },
    wake() {
      // Wakes are coalesced: at most one claim every MIN_CLAIM_INTERVAL_MS, however many events arrive, so
      // a busy send path does not turn into a claim query per request.
      schedule(Math.max(0, MIN_CLAIM_INTERVAL_MS - (now() - lastClaimAt)));
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      await claiming; // what it claimed after this point is given back, not started
      if (active.size === 0) return;
      // Most attempts end within the grace; one that would not (a hanging receiver) is cut and given back.
      const cut = setTimeout(() => {
        for (const a of active.values()) a.stop.abort();
      }, stopGraceMs);
      await Promise.all([...active.values()].map((a) => a.done));
      clearTimeout(cut);
    },
  };
}
