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
import type {
  AttemptOutcome,
  ClaimedDelivery,
  ClaimResult,
  DeliveryStore,
} from '../domain/ports/webhook-deliveries.ts';
import { rememberingUnsealer } from '../lib/sealed-secrets.ts';
import { atTurnEnd } from '../lib/turn-end.ts';
import { AttemptBatches } from './attempt-batches.ts';
import { type ClaimPlan, DeliverySlots, type SlotLimits } from './delivery-slots.ts';
import { EmptyScans } from './empty-scans.ts';
import { postDelivery } from './post-delivery.ts';
import { stepAfterAttempt } from './retry-schedule.ts';
import { signatureHeader } from './signing.ts';

export interface DispatcherOptions {
  repo: DeliveryStore;
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
  logger: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  now?: () => number;
  /** Told of every attempt's outcome (the gateway's /metrics). */
  onAttempt?: (attempt: { outcome: 'succeeded' | 'retry' | 'failed'; latencyMs: number }) => void;
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
function deliveryHeaders(
  item: ClaimedDelivery,
  unseal: (sealed: string) => string,
  at: number,
): Record<string, string> {
  const { endpoint } = item;
  const secrets = [unseal(endpoint.sealedSecret)];
  if (endpoint.previousSealedSecret && (endpoint.previousSecretUntil ?? 0) > at) {
    secrets.push(unseal(endpoint.previousSealedSecret));
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
  return new SlottedDispatcher(options);
}

class SlottedDispatcher implements WebhookDispatcher {
  readonly #options: DispatcherOptions;
  readonly #now: () => number;
  readonly #pollMs: number;
  readonly #lockMs: number;
  readonly #stopGraceMs: number;
  readonly #slots: DeliverySlots;
  readonly #batches: AttemptBatches<AttemptOutcome>;
  /** The endpoints' signing secrets, each opened once, not once per delivery. */
  readonly #unseal: (sealed: string) => string;
  readonly #active = new Map<string, { stop: AbortController; done: Promise<void> }>();
  #running = false;
  #claiming: Promise<void> | undefined;
  /** Something changed while a claim ran (a slot freed, a wake came): claim again when it ends. */
  #claimAgain = false;
  /**
   * Claims once this turn of the event loop is over: the attempts that ended in it (recorded in one group
   * commit on SQLite, docs/adr/0007) share one claim for the slots they freed.
   */
  readonly #claimAfterTurn = atTurnEnd(() => this.#claim());
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Number.POSITIVE_INFINITY;
  #lastClaimAt = 0;
  readonly #emptyScans = new EmptyScans();
  /** A claim was held back until outcomes waiting to be recorded are written. */
  #waitedForRecords = false;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#pollMs = options.pollMs ?? 250;
    this.#lockMs = options.lockMs ?? options.timeoutMs * 2 + 1000;
    this.#stopGraceMs = options.stopGraceMs ?? 2000;
    this.#slots = new DeliverySlots(options.concurrency);
    this.#unseal = rememberingUnsealer(options.secretKey);
    this.#batches = new AttemptBatches(
      async (outcomes) => {
        await this.#recordBatch(outcomes);
        if (this.#waitedForRecords) this.#claimAfterTurn();
      },
      (error, count) =>
        options.logger.error(
          { err: error, attempts: count },
          'webhook attempts could not be recorded; their deliveries go out again once their claims expire',
        ),
    );
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#claim();
  }

  wake(): void {
    this.#emptyScans.forget();
    // Wakes are coalesced: at most one claim every MIN_CLAIM_INTERVAL_MS, however many events arrive, so a
    // busy send path does not turn into a claim query per request.
    this.#schedule(Math.max(0, MIN_CLAIM_INTERVAL_MS - (this.#now() - this.#lastClaimAt)));
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#claiming; // what it claimed after this point is given back, not started
    if (this.#active.size === 0) return;
    // Most attempts end within the grace; one that would not (a hanging receiver) is cut and given back.
    const cut = setTimeout(() => {
      for (const a of this.#active.values()) a.stop.abort();
    }, this.#stopGraceMs);
    await Promise.all([...this.#active.values()].map((a) => a.done));
    clearTimeout(cut);
  }

  /**
   * One attempt. `answered` is called once the receiver's answer is known: the slot is the receiver's load,
   * so it is freed then, and the next delivery starts while this one's outcome waits for its batch write
   * (the delivery stays claimed until it is recorded).
   */
  async #attempt(item: ClaimedDelivery, stop: AbortSignal, answered: () => void): Promise<void> {
    const { repo, ...options } = this.#options;
    const { delivery, endpoint } = item;
    const started = this.#now();
    if (endpoint.disabledAt !== null) {
      await repo.markDeliveryFailed(delivery.id, started);
      return;
    }
    const headers = deliveryHeaders(item, this.#unseal, started);
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
    const finished = this.#now();
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    this.#slots.noteOutcome(endpoint.id, ok);
    answered();
    const step = stepAfterAttempt(answer, delivery.attemptCount + 1, finished, options.retryScheduleMs);
    options.onAttempt?.({
      outcome: step.status === 'pending' ? 'retry' : step.status,
      latencyMs: finished - started,
    });
    // Said in the log as well as in the endpoint's deliveries, for whoever runs the gateway: never the
    // URL (it may carry credentials), the headers or the body.
    if (!ok)
      options.logger.info(
        {
          endpointId: endpoint.id,
          deliveryId: delivery.id,
          attempt: step.attemptCount,
          statusCode: answer.status,
          error: answer.error,
          next: step.status === 'pending' ? new Date(step.nextAttemptAt).toISOString() : step.status,
        },
        'webhook delivery attempt failed',
      );
    await this.#batches.record({
      attempt: {
        deliveryId: delivery.id,
        attemptedAt: started,
        statusCode: answer.status,
        latencyMs: finished - started,
        responseBody: answer.body,
        error: answer.error,
      },
      next: step,
      endpointId: endpoint.id,
      ok,
    });
  }

  /** Writes a batch of outcomes (attempt-batches.ts). */
  async #recordBatch(outcomes: AttemptOutcome[]): Promise<void> {
    const { repo, disableAfterMs, logger } = this.#options;
    const disabled = await repo.recordAttempts(outcomes, this.#now(), disableAfterMs);
    for (const endpointId of disabled) {
      logger.warn({ endpointId }, 'webhook endpoint disabled after failing without a success');
    }
  }

  #start(item: ClaimedDelivery): void {
    const { delivery, endpoint } = item;
    this.#slots.take(delivery.accountId, endpoint.id, endpoint.failingSince);
    const stop = new AbortController();
    let slotFreed = false;
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      if (this.#slots.give(delivery.accountId, endpoint.id)) this.#claimAfterTurn();
    };
    const done = this.#attempt(item, stop.signal, freeSlot)
      .catch((e) =>
        this.#options.logger.error(
          { err: e, deliveryId: delivery.id },
          'webhook attempt could not be recorded',
        ),
      )
      .finally(() => {
        this.#active.delete(delivery.id);
        freeSlot();
      });
    this.#active.set(delivery.id, { stop, done });
  }

  /** Claims while there are free slots and due deliveries that fit them. */
  async #claimWhileRoom(): Promise<void> {
    const { repo } = this.#options;
    do {
      this.#claimAgain = false;
      if (this.#slots.free === 0) break; // the next slot to free up claims again
      // Outcomes are recorded more slowly than receivers answer: no more until the next batch is written.
      this.#waitedForRecords = this.#batches.waiting >= this.#options.concurrency.total;
      if (this.#waitedForRecords) break;
      this.#lastClaimAt = this.#now();
      let result: ClaimResult;
      let plan: ClaimPlan;
      try {
        plan = this.#slots.planClaim();
        // Claims that could only read what the last empty one read are left to the next wake or poll.
        if (!this.#emptyScans.worthClaiming(plan.skipAccounts, plan.skipEndpoints, this.#now())) break;
        result = await repo.claimDue({ now: this.#lastClaimAt, lockMs: this.#lockMs, ...plan });
      } catch (e) {
        this.#options.logger.error({ err: e }, 'webhook deliveries could not be claimed; retrying');
        break;
      }
      if (!this.#running) {
        await repo.releaseClaims(result.claimed.map((c) => c.delivery.id));
        return;
      }
      for (const item of result.claimed) this.#start(item);
      const found = result.claimed.length + result.lost + result.heldBack > 0;
      this.#emptyScans.noteClaim(plan.skipAccounts, plan.skipEndpoints, found, this.#now(), this.#pollMs);
      // A full window may have left due deliveries unread behind endpoints that are now at their cap; a
      // node that claimed some of the same rows first may have left others.
      if (result.more || result.lost > 0) {
        if (result.claimed.length > 0) this.#claimAgain = true;
        else this.#schedule(MIN_CLAIM_INTERVAL_MS); // lost them all: give that node time to finish
      }
    } while (this.#running && this.#claimAgain);
  }

  /** Claims now, or has the claim in progress go again once it ends. */
  #claim(): void {
    if (!this.#running) return;
    if (this.#claiming) {
      this.#claimAgain = true;
      return;
    }
    this.#claiming = this.#claimWhileRoom()
      .catch((e) => this.#options.logger.error({ err: e }, 'webhook dispatcher claim failed; retrying'))
      .finally(() => {
        this.#claiming = undefined;
        this.#schedule(this.#pollMs); // retries fall due with time, without any wake
      });
  }

  /** A claim in `delayMs` at the latest: one timer, moved earlier, never later. */
  #schedule(delayMs: number): void {
    if (!this.#running) return;
    const at = this.#now() + delayMs;
    if (this.#timer !== undefined && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Number.POSITIVE_INFINITY;
      this.#claim();
    }, delayMs);
  }
}
