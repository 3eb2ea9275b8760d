/**
 * Runs the unknown-outcome sweep (unknown-outcomes.ts) on a timer on every node. Nodes need no coordination:
 * each move the sweep makes is one guarded update, so two nodes sweeping at once move a message once.
 */

export interface SweeperOptions {
  /** One pass; returns how many messages it looked at (a full batch is followed by another pass at once). */
  pass(): Promise<number>;
  batch: number;
  everyMs: number;
  logger: { error(obj: object, msg: string): void };
}

export interface Sweeper {
  start(): void;
  /** Stops the timer and waits for a pass under way, so the database can close after it. */
  stop(): Promise<void>;
}

/** Often enough that a message is FAILED soon after its time is up, and never more than twice a second. */
export function sweepInterval(unknownOutcomeMs: number): number {
  return Math.min(30_000, Math.max(500, Math.floor(unknownOutcomeMs / 5)));
}

export function createSweeper(options: SweeperOptions): Sweeper {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;

  async function run(): Promise<void> {
    try {
      while (running && (await options.pass()) >= options.batch) {
        // A full batch: more are probably due.
      }
    } catch (error) {
      options.logger.error({ err: error }, 'unknown-outcome sweep failed; it runs again on its next turn');
    }
    if (running) timer = setTimeout(() => (current = run()), options.everyMs);
  }

  return {
    start() {
      if (running) return;
      running = true;
      timer = setTimeout(() => (current = run()), options.everyMs);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}
