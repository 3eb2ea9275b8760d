/**
 * Posts webhooks the way Meta does (docs/cloud-api.md §3.2, §3.7): JSON, signed with the app secret over the exact
 * bytes sent (`X-Hub-Signature-256: sha256=<hex>`), retried with backoff while the receiver fails or is
 * slow (Meta retries for days; the simulator for about a minute, enough for a restarting gateway).
 *
 * Posts sharing a key (the statuses of one message, the messages of one user to one business) go through
 * one queue, so their order holds even while an earlier post is being retried. A failed post is logged,
 * never thrown.
 *
 * Every post stays in the state journal until the receiver accepted it or it was given up, so a restart
 * posts again what was still owed (`restore`), in the order it was first queued: the receiver may see a
 * post twice, as Meta's receivers do, never miss one. A caller whose own journal record already says what
 * to post again after a restart (status-timeline.ts) posts without a record of its own (`journaled:
 * false`) and learns from `onSettled` when it may let go of its own.
 */
import { createHmac } from 'node:crypto';
import { Agent, request } from 'undici';
import type { Scheduler } from './scheduler.ts';
import type { StateJournal } from './state/journal.ts';
import { isJoinableEnvelope, takeBatch } from './webhook-batch.ts';

/** A message the virtual user sent, shown as delivered on the phone once the receiver accepted its post. */
export interface SentMark {
  user: string;
  id: string;
}

export interface PostHooks {
  /** Runs once the receiver answered 2xx (after a restart too: it is kept with the post). */
  accepted?: SentMark;
  /** Runs once the first attempt ended, accepted or not (retries go on after it); not kept. */
  onFirstTry?: (accepted: boolean) => void;
  /**
   * False: the post is not written to the journal, because the caller's own record brings it back after a
   * restart. Such a caller lets go of that record in `onSettled`.
   */
  journaled?: false;
  /**
   * Runs once the post ended for good: accepted, or given up after the last retry. Not for a post cut short
   * by closing, which the next start posts again. Not kept.
   */
  onSettled?: () => void;
}

/** The journal's kind, keyed by the post's place in the order of all posts. */
export const WEBHOOK_KIND = 'webhook';

export interface WebhookRecord {
  seq: number;
  queue: string;
  body: string;
  accepted?: SentMark;
  /** The payload was not a plain envelope: it is never joined to others (webhook-batch.ts). */
  alone?: true;
}

/** A post whose turn in its queue has come, waiting for a slot (and then for its batch's outcome). */
interface ReadyPost {
  body: string;
  alone?: true;
  onFirstTry?: (accepted: boolean) => void;
  settle: (outcome: Outcome) => void;
}

/** How a post ended: accepted by the receiver, given up after the last retry, or cut short by closing. */
type Outcome = 'accepted' | 'given up' | 'closed';

export interface PosterOptions {
  url: () => string;
  appSecret: string;
  scheduler: Scheduler;
  journal: StateJournal;
  /** What a post's `accepted` mark does once the receiver took it. */
  markAccepted: (mark: SentMark) => void;
  logger?: { warn(obj: object, msg: string): void };
  /** Waits between attempts; one attempt more than delays. */
  retryDelaysMs?: readonly number[];
  timeoutMs?: number;
  /** Posts owed at most before room() makes the network's sends wait (default MAX_OWED). */
  maxOwed?: number;
}

const RETRY_DELAYS_MS = [250, 1000, 4000, 15_000, 30_000];
const TIMEOUT_MS = 5000;
/** Posts in flight at once: a burst of sends must not open thousands of sockets to the receiver. */
const MAX_IN_FLIGHT = 32;
/**
 * Posts owed (queued, in flight or being retried) past which the network takes no more sends until some
 * are done (room()). Every message brings three statuses: a receiver that applies them more slowly than
 * it sends would otherwise have them pile up here without bound, and in the embedded default this is the
 * gateway's own process (bench/README.md: 353 MB at the peak of such a backlog). Meta holds its backlog
 * on its side; a simulated network on the business's machine holds a bounded one and slows the sends
 * instead, which a client sees as slower answers, never as an error.
 */
export const MAX_OWED = 2000;

export function signBody(appSecret: string, body: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`;
}

/**
 * Serialises like Meta: non-ASCII characters as `\uXXXX` escapes (docs/cloud-api.md §3.2), so a receiver that
 * verifies re-serialised JSON instead of the raw bytes fails here as it would in production.
 */
export function serializeWebhook(payload: unknown): string {
  return JSON.stringify(payload).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export class WebhookPoster {
  readonly #options: PosterOptions;
  readonly #queues = new Map<string, Promise<void>>();
  readonly #inFlight = new Set<AbortController>();
  /** Retries of batches waiting for a slot; they go before new batches. */
  readonly #waiting: (() => void)[] = [];
  /** Posts whose turn has come, waiting for a slot: those that waited together leave as one batch. */
  readonly #ready: ReadyPost[] = [];
  /**
   * Keep-alive connections to the receiver, one per post in flight. Posts go over undici's `request`, not
   * `fetch`: every sent message brings three posts, and a fetch costs several times the CPU of a request
   * (bench/README.md), which a network on the same machine takes from the gateway it serves.
   */
  readonly #agent = new Agent({ connections: MAX_IN_FLIGHT });
  #active = 0;
  #seq = 0;
  /** Posts queued and not yet accepted, given up or cut short, and the sends waiting for room. */
  #owed = 0;
  readonly #maxOwed: number;
  readonly #waitingForRoom: (() => void)[] = [];

  constructor(options: PosterOptions) {
    this.#options = options;
    this.#maxOwed = options.maxOwed ?? MAX_OWED;
  }

  /** Serialises `payload` now and posts it after every earlier post with the same key (see PostHooks). */
  enqueue(key: string, payload: unknown, hooks: PostHooks = {}): void {
    if (this.#options.scheduler.closed) {
      hooks.onFirstTry?.(false);
      return;
    }
    const record: WebhookRecord = { seq: ++this.#seq, queue: key, body: serializeWebhook(payload) };
    if (hooks.accepted) record.accepted = hooks.accepted;
    if (!isJoinableEnvelope(payload)) record.alone = true;
    if (hooks.journaled !== false) this.#options.journal.put(WEBHOOK_KIND, String(record.seq), record);
    this.#queue(record, hooks);
  }

  /**
   * Takes the posts a journal kept (state/restore.ts): their numbers are taken at once, so a post queued
   * before they go out never reuses one; the returned function queues them, in their first order.
   */
  restore(records: WebhookRecord[]): () => void {
    const ordered = [...records].sort((a, b) => a.seq - b.seq);
    for (const record of ordered) this.#seq = Math.max(this.#seq, record.seq);
    return () => {
      for (const record of ordered) this.#queue(record);
    };
  }

  /** Resolves once fewer than maxOwed posts are owed (at once, mostly), or the network is closing. */
  room(): Promise<void> {
    if (this.#owed < this.#maxOwed || this.#options.scheduler.closed) return Promise.resolve();
    return new Promise((resolve) => this.#waitingForRoom.push(resolve));
  }

  #paid(): void {
    this.#owed--;
    if (this.#owed < this.#maxOwed) this.#waitingForRoom.shift()?.();
  }

  #queue(record: WebhookRecord, hooks: PostHooks = {}): void {
    const key = record.queue;
    const previous = this.#queues.get(key) ?? Promise.resolve();
    this.#owed++;
    const next = previous.then(async () => {
      // Nothing leaves the network before the change it reports is written: a receiver told of an
      // approval (or a delivery) never meets a network that forgot it after a kill -9.
      await this.#options.journal.settled().catch(() => undefined);
      const outcome = await this.#post(record, hooks.onFirstTry);
      // A post cut short by closing stays in the journal (its own record or its caller's): the next start
      // posts it.
      if (outcome === 'closed') return;
      if (hooks.journaled !== false) this.#options.journal.remove(WEBHOOK_KIND, String(record.seq));
      if (outcome === 'accepted' && record.accepted) this.#options.markAccepted(record.accepted);
      hooks.onSettled?.();
    });
    this.#queues.set(key, next);
    void next.finally(() => {
      this.#paid();
      if (this.#queues.get(key) === next) this.#queues.delete(key);
    });
  }

  /** Resolves once every queued post was delivered or given up. */
  async idle(): Promise<void> {
    while (this.#queues.size > 0) await Promise.allSettled([...this.#queues.values()]);
  }

  /** Aborts posts in flight and drops queued ones; the scheduler's close ends the retry sleeps. */
  async close(): Promise<void> {
    for (const controller of this.#inFlight) controller.abort();
    for (const wake of this.#waiting.splice(0)) wake();
    for (const wake of this.#waitingForRoom.splice(0)) wake();
    await this.idle();
    await this.#agent.destroy();
  }

  /** Resolves with how the post ended, once the batch it left in did (webhook-batch.ts). */
  #post(record: WebhookRecord, onFirstTry?: (accepted: boolean) => void): Promise<Outcome> {
    return new Promise((settle) => {
      const ready: ReadyPost = { body: record.body, settle };
      if (record.alone) ready.alone = true;
      if (onFirstTry) ready.onFirstTry = onFirstTry;
      this.#ready.push(ready);
      this.#startBatches();
    });
  }

  /** Starts a batch of the ready posts in every free slot (all of them at once when closing). */
  #startBatches(): void {
    while (this.#ready.length > 0 && (this.#active < MAX_IN_FLIGHT || this.#options.scheduler.closed)) {
      this.#active++;
      void this.#deliver(takeBatch(this.#ready));
    }
  }

  /** Posts one batch, holding the slot taken for it, and retries it whole while the receiver fails. */
  async #deliver(batch: { items: ReadyPost[]; body: string }): Promise<void> {
    const { scheduler, logger } = this.#options;
    const delays = this.#options.retryDelaysMs ?? RETRY_DELAYS_MS;
    const signature = signBody(this.#options.appSecret, batch.body);
    const posts = batch.items.length;
    let outcome: Outcome = 'closed';
    let tried = false;
    for (let attempt = 1; !scheduler.closed; attempt++) {
      // The first attempt has the slot #startBatches took for it; a retry waits for one.
      if (attempt > 1) await this.#acquire();
      const problem = await this.#attempt(batch.body, signature);
      if (!tried) for (const item of batch.items) item.onFirstTry?.(problem === null);
      tried = true;
      if (problem === null) {
        outcome = 'accepted';
        break;
      }
      if (scheduler.closed) break;
      const delay = delays[attempt - 1];
      if (delay === undefined) {
        logger?.warn({ attempts: attempt, posts, problem }, 'simulator webhook given up; the event is lost');
        outcome = 'given up';
        break;
      }
      logger?.warn({ attempt, posts, problem, retryInMs: delay }, 'simulator webhook not accepted; retrying');
      await scheduler.sleep(delay);
    }
    if (!tried) {
      // Closed before its first attempt: the slot #startBatches took was never used, so it is given back.
      this.#release();
      for (const item of batch.items) item.onFirstTry?.(false);
    }
    for (const item of batch.items) item.settle(outcome);
  }

  /** One POST in a slot already taken, released after; null when the receiver accepted it (2xx). */
  async #attempt(body: string, signature: string): Promise<string | null> {
    const controller = new AbortController();
    this.#inFlight.add(controller);
    try {
      if (this.#options.scheduler.closed) return 'closed';
      const timeout = this.#options.timeoutMs ?? TIMEOUT_MS;
      const answer = await request(this.#options.url(), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
        body,
        dispatcher: this.#agent,
        signal: controller.signal,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
      await answer.body.dump();
      const ok = answer.statusCode >= 200 && answer.statusCode < 300;
      return ok ? null : `HTTP ${answer.statusCode}`;
    } catch (error) {
      return (error as { code?: string }).code ?? (error as Error).message;
    } finally {
      this.#inFlight.delete(controller);
      this.#release();
    }
  }

  async #acquire(): Promise<void> {
    if (this.#active < MAX_IN_FLIGHT || this.#options.scheduler.closed) {
      this.#active++;
      return;
    }
    // The releasing post hands its slot over, so the count never exceeds the cap.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  /** A freed slot goes to a waiting retry first, else to a batch of the posts that became ready. */
  #release(): void {
    const next = this.#waiting.shift();
    if (next) {
      next();
      return;
    }
    this.#active--;
    this.#startBatches();
  }
}
