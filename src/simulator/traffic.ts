/**
 * What stands between a send and the simulated network: Meta's limits (docs/cloud-api.md §7), always on, and
 * faults injected for tests and evaluation (`/simulator/faults`), off unless asked for.
 *
 * - Throughput: at most `maxSendsPerSecond` sends per business number (default 80, Meta's default
 *   tier), as a token bucket with one second of burst; beyond it error 130429.
 * - Pair rate: one business number to one user, about one message per 6 s with a burst of 45 that
 *   borrows future quota (docs/cloud-api.md §7); beyond it error 131056.
 * - Faults apply to `POST /{v}/{phone-number-id}/messages` only: added latency, a share of HTTP 5xx
 *   answers, a timeout (the request is held unanswered), or the throughput error for every send.
 *
 * The normal path costs one flag test and two counter lookups: no allocation once a number and a pair
 * have been seen.
 */
import type { FastifyReply } from 'fastify';
import { Gcra } from '../lib/gcra.ts';
import { type GraphError, graphError } from './graph-errors.ts';
import type { Scheduler } from './scheduler.ts';
import type { StateJournal } from './state/journal.ts';

export interface Faults {
  /** Added before the send is handled. */
  latencyMs?: number;
  /** Share of sends answered HTTP 503 with a Graph error saying nothing was taken (1 = every send). */
  status5xx?: number;
  /** Sends are held unanswered until the fault is cleared (then handled) or the simulator closes. */
  timeout?: boolean;
  /** Every send is answered with the throughput error 130429 (HTTP 429). */
  throughput?: boolean;
}

export interface TrafficOptions {
  /** Sends per second per business number; 0 = no limit. */
  maxSendsPerSecond: number;
  /** Messages one number may send one user at once before the pair is throttled; 0 = no pair limit. */
  pairBurst: number;
  /** Spacing the pair rate refills at (docs/cloud-api.md §7: about 6 s). */
  pairIntervalMs: number;
  scheduler: Scheduler;
  /** Keeps the faults in force across a restart (the rate counters start rested, see restore). */
  journal: StateJournal;
}

/** The journal's kind: one record, `current`, while faults are in force. */
export const FAULTS_KIND = 'faults';

export interface FaultsRecord {
  faults: Faults;
  /** Epoch ms when they end; null = until cleared. */
  until: number | null;
}

export const THROUGHPUT_DETAILS =
  'Message failed to send because there were too many messages sent from this phone number in a short period of time.';
export const PAIR_RATE_DETAILS =
  'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.';

/** The outcome of a held send: go on as usual, or the simulator closed under it. */
type Release = (outcome: 'handle' | 'closed') => void;

export class Traffic {
  readonly #throughput: Gcra | null;
  readonly #pairs: Map<string, Gcra> | null;
  readonly #options: TrafficOptions;
  #faults: Faults = {};
  /** Fast-path flag: true while any fault is set. */
  #faulty = false;
  #until: number | null = null;
  #generation = 0;
  readonly #held = new Set<Release>();

  constructor(options: TrafficOptions) {
    this.#options = options;
    const rate = options.maxSendsPerSecond;
    this.#throughput = rate > 0 ? new Gcra(1000 / rate, rate) : null;
    this.#pairs = options.pairBurst > 0 ? new Map() : null;
  }

  get faulty(): boolean {
    return this.#faulty;
  }

  /**
   * The faults in force, when they end (null = until cleared), and how many sends a timeout fault holds
   * unanswered now: what a script waits for before it stops the network under them.
   */
  current(): { faults: Faults; until: string | null; held: number } {
    return {
      faults: { ...this.#faults },
      until: this.#until === null ? null : new Date(this.#until).toISOString(),
      held: this.#held.size,
    };
  }

  /** Replaces the faults in force; `forMs` ends them on their own. */
  set(faults: Faults, forMs?: number): void {
    this.clear();
    this.#faults = faults;
    this.#faulty = Object.keys(faults).length > 0;
    const generation = ++this.#generation;
    if (forMs !== undefined) {
      this.#until = Date.now() + forMs;
      this.#options.scheduler.after(forMs, () => {
        if (this.#generation === generation) this.clear();
      });
    }
    const record: FaultsRecord = { faults, until: this.#until };
    this.#options.journal.put(FAULTS_KIND, 'current', record);
  }

  /**
   * The faults a journal kept, unless they ended while the process was down. Throughput and pair
   * counters are not kept: they start rested, as they would be a few minutes later anyway.
   */
  restore(record: FaultsRecord): void {
    if (record.until === null) this.set(record.faults);
    else if (record.until > Date.now()) this.set(record.faults, record.until - Date.now());
    else this.#options.journal.remove(FAULTS_KIND, 'current');
  }

  /** Clears every fault; sends held by a timeout fault are handled now (their client may be gone). */
  clear(): void {
    this.#generation++;
    this.#faults = {};
    this.#faulty = false;
    this.#until = null;
    this.#options.journal.remove(FAULTS_KIND, 'current');
    this.#release('handle');
  }

  /** The simulator closes: held sends are dropped unanswered. */
  close(): void {
    this.#faulty = false;
    this.#release('closed');
  }

  #release(outcome: 'handle' | 'closed'): void {
    const held = [...this.#held];
    this.#held.clear();
    for (const release of held) release(outcome);
  }

  /**
   * Applies the faults in force to one send. Returns an error to answer with, 'dropped' when the request
   * was held until the simulator closed (its connection is cut, never answered), or undefined to go on.
   */
  async inject(reply: FastifyReply): Promise<GraphError | 'dropped' | undefined> {
    const faults = this.#faults;
    if (faults.latencyMs) await this.#options.scheduler.sleep(faults.latencyMs);
    if (faults.throughput) return graphError(130429, THROUGHPUT_DETAILS, 429);
    if (faults.status5xx !== undefined && Math.random() < faults.status5xx) {
      return graphError(131016, 'The service is temporarily unavailable; the message was not taken.', 503);
    }
    if (faults.timeout) {
      const outcome = await new Promise<'handle' | 'closed'>((resolve) => this.#held.add(resolve));
      if (outcome === 'closed') {
        reply.hijack();
        reply.raw.destroy();
        return 'dropped';
      }
    }
    return undefined;
  }

  /** Meta's limits for one accepted-looking send; an error when the number or the pair is over its rate. */
  admit(business: string, recipient: string): GraphError | undefined {
    if (this.#throughput && this.#throughput.reserve(business) > 0) {
      return graphError(130429, THROUGHPUT_DETAILS, 429);
    }
    if (this.#pairs) {
      let pairs = this.#pairs.get(business);
      if (!pairs) {
        pairs = new Gcra(this.#options.pairIntervalMs, this.#options.pairBurst);
        this.#pairs.set(business, pairs);
      }
      if (pairs.reserve(recipient) > 0) return graphError(131056, PAIR_RATE_DETAILS, 429);
    }
    return undefined;
  }
}
