/**
 * Sends the running campaigns' messages, on every node (docs/campaigns.md, docs/adr/0027). Each node
 * claims a few recipients at a time under a lease and sends each through the ordinary send pipeline as
 * bulk work: paced within the number's tier behind interactive sends (docs/adr/0020), deduplicated by the
 * recipient's deterministic messageId, so a messageId is handed to the network at most once however many
 * nodes work the campaign, restart, or take over a stopped node's recipients when its lease runs out (a
 * send the network never had is sent again once under a new one: ADR 0027).
 *
 * A campaign found PAUSED or CANCELLED stops being sent within one batch; a scheduled one starts when its
 * time comes; one with nothing left to send is COMPLETED with its counts.
 */
import { GatewayError } from '../errors.ts';
import type { Campaign, ClaimedRecipient, RecipientOutcome } from '../ports/campaigns.ts';
import type { SendResultData } from '../send-message.ts';
import { pauseWithReason } from './campaign-control.ts';
import { campaignEvents } from './campaign-events.ts';
import { type CampaignDeps, type TemplateSendBody, templateSendBody } from './campaign-service.ts';
import { countsOf } from './counts.ts';
import type { LimitGate } from './messaging-limit.ts';
import { isNumberWideCode } from './network-signals.ts';

export interface RunnerDeps extends CampaignDeps {
  /** A recipient's template send as bulk work; `deadline`: not begun after it (the lease would run out). */
  send(
    accountId: string,
    body: TemplateSendBody,
    options: { reclaimed: boolean; deadline: number; stillWanted: () => Promise<boolean> },
  ): Promise<SendResultData>;
  /** Whether a message with this messageId was recorded (the send got as far as the network). */
  messageExists(accountId: string, messageId: string): Promise<boolean>;
  /** Which of a batch's users the number's messaging limit lets it reach (messaging-limit.ts). */
  withinLimit(campaign: Campaign, users: string[]): Promise<LimitGate>;
  leaseMs: number;
  everyMs: number;
  logger: { error(obj: object, msg: string): void };
}

export interface CampaignRunner {
  start(): void;
  /** Looks for work now instead of at the next turn. */
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Recipients a node claims at once: sized to what it sent in the last batch, so that a batch takes about
 * half its lease whatever the number's tier (a slow number's batch would otherwise outlive its lease and
 * be taken over while it is being sent).
 */
const BATCH = { first: 20, min: 5, max: 200 };

function nextBatchSize(sent: number, elapsedMs: number, leaseMs: number): number {
  const perMs = sent / Math.max(1, elapsedMs);
  return Math.min(BATCH.max, Math.max(BATCH.min, Math.floor((perMs * leaseMs) / 2)));
}

/** Sends of one campaign in flight on one node: enough to fill a 1,000/s tier with sends of ~20 ms. */
const LANES = 32;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Outcome =
  | { state: 'DONE' | 'FAILED' | 'SKIPPED'; reason: string | null; pause?: string }
  | { retry: true; afterMs: number };

/** Why a batch stopped taking recipients: the campaign pauses with a reason, or waits and goes on. */
type Stop = { pause: string } | { retry: true; afterMs: number };

/**
 * What a refused send means for its recipient. A send that got as far as a message (the network
 * refused it, or its outcome is not known yet) is DONE: the message's own status tells the rest, and the
 * network's reports settle an unknown one (ADR 0013). One refused before any message is FAILED, or
 * SKIPPED for an opt-out; nothing sent and worth another try is given back.
 */
function outcomeOf(error: unknown, hasMessage: boolean): Outcome {
  if (!(error instanceof GatewayError)) throw error;
  if (error.code === 'opted_out') return { state: 'SKIPPED', reason: 'opted_out' };
  // A refusal with a time to retry after (the network limiting, unavailable, unreachable: nothing was sent)
  // is tried again, however long the network stays down; only a refusal of the message itself fails it.
  const retry =
    ['rate_limited', 'network_unavailable'].includes(error.code) ||
    error.retryAfterSeconds !== undefined ||
    (error.code === 'conflict' && !/different message/.test(error.message));
  if (retry && !hasMessage)
    return { retry: true, afterMs: Math.max(200, (error.retryAfterSeconds ?? 1) * 1000) };
  if (retry) return { retry: true, afterMs: 1000 }; // another node's send of it is still under way
  // The number itself cannot go on: the campaign pauses with the network's words.
  const numberWide = error.networkCode !== undefined && isNumberWideCode(error.networkCode);
  const pause = numberWide ? { pause: error.message } : {};
  return hasMessage
    ? { state: 'DONE', reason: null, ...pause }
    : { state: 'FAILED', reason: error.message, ...pause };
}

/** How often a batch looks whether its campaign was paused or cancelled meanwhile (on any node). */
const STATUS_CHECK_MS = 200;

/** Whether the campaign is still RUNNING, read again at most every STATUS_CHECK_MS by all lanes together. */
function statusWatch(deps: RunnerDeps, campaign: Campaign): () => Promise<boolean> {
  const now = deps.now ?? Date.now;
  let checkedAt = now();
  let current: Promise<boolean> = Promise.resolve(true);
  return () => {
    if (now() - checkedAt >= STATUS_CHECK_MS) {
      checkedAt = now();
      current = deps.campaigns.find(campaign.accountId, campaign.id).then((c) => c?.status === 'RUNNING');
    }
    return current;
  };
}

/**
 * Outcomes are written together, one statement for up to FINISH_EVERY recipients, and at least every
 * FINISH_AFTER_MS so the counts keep up (a crash before a write only means the recipients are taken
 * over and their messageIds replayed).
 */
const FINISH_EVERY = 50;
const FINISH_AFTER_MS = 200;

/** Sends one claimed batch; stops taking recipients when told to pause or back off. */
async function sendBatch(
  deps: RunnerDeps,
  campaign: Campaign,
  batch: ClaimedRecipient[],
  go: { leaseUntil: number; running: () => boolean },
): Promise<Stop | undefined> {
  const now = deps.now ?? Date.now;
  let stop: Stop | undefined;
  const gate = await deps.withinLimit(
    campaign,
    batch.map((r) => r.recipient),
  );
  const queue = batch.filter((r) => gate.allowed(r.recipient));
  for (const r of batch)
    if (!gate.allowed(r.recipient)) await deps.campaigns.release(campaign.id, r.seq, now());
  const stillRunning = statusWatch(deps, campaign);
  let finished: RecipientOutcome[] = [];
  let flushedAt = now();
  const flush = async () => {
    const done = finished;
    finished = [];
    flushedAt = now();
    await deps.campaigns.finish(campaign.id, done, now());
  };
  const lane = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      if (stop || !go.running() || !(await stillRunning())) {
        await deps.campaigns.release(campaign.id, r.seq, now());
        continue;
      }
      const outcome = await sendOne(deps, campaign, r, {
        deadline: go.leaseUntil,
        stillWanted: stillRunning,
      });
      if ('state' in outcome) {
        const { pause, ...result } = outcome;
        finished.push({ seq: r.seq, ...result, sentAt: outcome.state === 'DONE' ? now() : null });
        if (finished.length >= FINISH_EVERY || now() - flushedAt >= FINISH_AFTER_MS) await flush();
        if (pause) stop ??= { pause };
      } else {
        stop ??= outcome;
        await deps.campaigns.release(campaign.id, r.seq, now());
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LANES, queue.length) }, lane));
  await flush();
  // Those the messaging limit let through were sent; the campaign pauses for the others.
  return gate.pause ? { pause: gate.pause } : stop;
}

async function sendOne(
  deps: RunnerDeps,
  campaign: Campaign,
  r: ClaimedRecipient,
  go: { deadline: number; stillWanted: () => Promise<boolean> },
): Promise<Outcome> {
  try {
    const body = templateSendBody(campaign, r.recipient, r.variables, r.messageId);
    await deps.send(campaign.accountId, body, { reclaimed: r.reclaimed, ...go });
    return { state: 'DONE', reason: null };
  } catch (error) {
    return outcomeOf(error, await deps.messageExists(campaign.accountId, r.messageId));
  }
}

async function complete(deps: RunnerDeps, campaign: Campaign) {
  const counts = countsOf(await deps.campaigns.tally(campaign));
  const change = { status: 'COMPLETED' as const, reason: null, at: (deps.now ?? Date.now)() };
  const done = await deps.campaigns.transition(
    campaign.accountId,
    campaign.id,
    ['RUNNING'],
    change,
    campaignEvents(counts),
  );
  if (done) deps.wake();
}

/** Works one campaign until it is done, stopped, or others hold what is left. */
async function work(deps: RunnerDeps, start: Campaign, running: () => boolean) {
  const now = deps.now ?? Date.now;
  let campaign: Campaign | undefined = start;
  let size = BATCH.first;
  while (running() && campaign?.status === 'RUNNING') {
    const startedAt = now();
    const leaseUntil = startedAt + deps.leaseMs;
    const batch = await deps.campaigns.claim(campaign, startedAt, leaseUntil, size);
    if (batch.length === 0) {
      if ((await deps.campaigns.remaining(campaign.id)) > 0) return; // others hold the rest
      if ((await deps.campaigns.requeueInterrupted(campaign, now())) > 0) continue;
      // Messages whose outcome is not known yet settle (or fail, and are queued again) first.
      if ((await deps.campaigns.countRecipients(campaign, 'queued')) === 0) await complete(deps, campaign);
      return;
    }
    const stop = await sendBatch(deps, campaign, batch, { leaseUntil, running });
    if (!stop) size = nextBatchSize(batch.length, now() - startedAt, deps.leaseMs);
    if (stop && 'pause' in stop) await pauseWithReason(deps, campaign, stop.pause);
    else if (stop && 'retry' in stop) await sleep(stop.afterMs);
    campaign = await deps.campaigns.find(campaign.accountId, campaign.id);
  }
}

/** Due scheduled campaigns become RUNNING (on whichever node sees them first). */
async function startDue(deps: RunnerDeps) {
  const now = deps.now ?? Date.now;
  for (const due of await deps.campaigns.due(now(), 20)) {
    const change = { status: 'RUNNING' as const, reason: null, at: now() };
    if (await deps.campaigns.transition(due.accountId, due.id, ['SCHEDULED'], change, campaignEvents()))
      deps.wake();
  }
}

export function createCampaignRunner(deps: RunnerDeps): CampaignRunner {
  const working = new Map<string, Promise<void>>();
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let turn: Promise<void> | undefined;
  const isRunning = () => running;

  async function lookForWork() {
    await startDue(deps);
    for (const campaign of await deps.campaigns.running(20)) {
      if (working.has(campaign.id)) continue;
      const worker = work(deps, campaign, isRunning)
        .catch((error) =>
          deps.logger.error(
            { err: error, campaignId: campaign.id },
            'campaign sending failed; it goes on at the next turn',
          ),
        )
        .finally(() => working.delete(campaign.id));
      working.set(campaign.id, worker);
    }
  }

  function schedule(ms: number) {
    clearTimeout(timer);
    if (!running) return;
    timer = setTimeout(() => {
      turn = lookForWork()
        .catch((error) =>
          deps.logger.error({ err: error }, 'campaign runner failed; it looks again at its next turn'),
        )
        .finally(() => schedule(deps.everyMs));
    }, ms);
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(deps.everyMs);
    },
    kick() {
      if (running) schedule(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await turn;
      await Promise.all(working.values());
    },
  };
}
