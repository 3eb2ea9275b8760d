/**
 * What happens to an accepted message on the simulated network (docs/cloud-api.md §1.2, §3.5, §8): `sent` at
 * once, `delivered` after statusDelayMs, `read` after another statusDelayMs when the virtual user reads
 * what arrives; or a single `failed` with the reason. Each step updates the virtual phone (unless the
 * message never reached it: UnseenMessage) and queues a signed `statuses` webhook; the webhooks of one
 * message share a queue, so `read` never overtakes `delivered`.
 *
 * The steps still to come are noted in the state journal (one record per message), so a restart takes
 * them up where they were (`restore`) instead of leaving a message `sent` for ever. A step leaves the
 * record only once its webhook was accepted (or given up), and the webhook itself is not journaled: the
 * record is what brings it back, so a restart posts again a status the receiver may not have had. As with
 * Meta, a receiver may see a status twice, never miss one. Without a record per webhook, a message with
 * its three statuses costs the journal 8 records instead of 14 (bench/README.md, report of 2026-11-27 12:15).
 */

import type { DeliveryStatus, PhoneBook, ReceivedMessage } from './phone-book.ts';
import type { Scheduler } from './scheduler.ts';
import type { StateJournal } from './state/journal.ts';
import { messagesEnvelope, type Pricing, statusItem } from './webhook-envelopes.ts';
import type { WebhookPoster } from './webhook-poster.ts';
import type { Conversation } from './window-tracker.ts';

export interface TimelineOptions {
  statusDelayMs: number;
  autoRead: boolean;
  /** False: statuses change on the phone but are not posted (load tests of the send path alone). */
  postStatuses: boolean;
  scheduler: Scheduler;
  poster: WebhookPoster;
  /** The phones, which show each status change (and tell their listeners). */
  phones: PhoneBook;
  journal: StateJournal;
  now: () => number;
}

/**
 * A message the network took but never handed to the phone, which keeps nothing of it (a marketing
 * template to a user who stopped this business's marketing, marketing-stops.ts): its statuses are only
 * posted.
 */
export interface UnseenMessage {
  id: string;
  unseen: true;
}

export interface Dispatch {
  business: string;
  recipient: string;
  message: ReceivedMessage | UnseenMessage;
  conversation: Conversation | null;
  pricing?: Pricing;
  callbackData?: string;
}

interface Step {
  status: DeliveryStatus;
  /** When the step is due (epoch ms of the `now` option). */
  dueAt: number;
  errors?: unknown[];
}

/** The journal's kind, keyed by message id: the dispatch without its message, and the steps to come. */
export const TIMELINE_KIND = 'timeline';

export interface TimelineRecord {
  business: string;
  recipient: string;
  messageId: string;
  conversation: Conversation | null;
  pricing?: Pricing;
  callbackData?: string;
  /** The message is not on the phone (UnseenMessage): nothing to find there on restore. */
  unseen?: true;
  steps: Step[];
}

export class StatusTimeline {
  readonly #options: TimelineOptions;

  constructor(options: TimelineOptions) {
    this.#options = options;
  }

  delivered(dispatch: Dispatch): void {
    const { statusDelayMs, autoRead } = this.#options;
    const at = this.#options.now();
    const steps: Step[] = [
      { status: 'sent', dueAt: at },
      { status: 'delivered', dueAt: at + statusDelayMs },
    ];
    if (autoRead) steps.push({ status: 'read', dueAt: at + 2 * statusDelayMs });
    this.#plan(dispatch, steps);
  }

  /** Production reports most refusals this way: 200 to the send, then a failed status (docs/cloud-api.md §8). */
  failed(dispatch: Dispatch, error: unknown): void {
    const dueAt = this.#options.now() + this.#options.statusDelayMs;
    this.#plan(dispatch, [{ status: 'failed', dueAt, errors: [error] }]);
  }

  /**
   * Takes up the steps a journal kept (state/restore.ts). A message the phone no longer holds (past its
   * MAX_MESSAGES_PER_PHONE, or a phone forgotten past MAX_PHONES) still has its statuses posted, as it would
   * have without the restart: only the phone has nothing left to show.
   */
  restore(records: TimelineRecord[]): void {
    for (const record of records) {
      const { steps, messageId, unseen, ...rest } = record;
      const message: Dispatch['message'] = (!unseen &&
        this.#options.phones.findReceived(record.recipient, messageId)) || { id: messageId, unseen: true };
      this.#plan({ ...rest, message }, steps);
    }
  }

  #plan(dispatch: Dispatch, steps: Step[]): void {
    const { scheduler, now, journal } = this.#options;
    const { message, ...rest } = dispatch;
    const record: TimelineRecord = {
      ...rest,
      messageId: message.id,
      ...('unseen' in message ? { unseen: true } : {}),
      steps: [...steps],
    };
    journal.put(TIMELINE_KIND, message.id, record);
    const start = now();
    for (const step of steps) {
      scheduler.after(Math.max(0, step.dueAt - start), () => {
        this.#emit(dispatch, step, () => this.#done(record, step));
      });
    }
  }

  #done(record: TimelineRecord, step: Step): void {
    record.steps = record.steps.filter((s) => s !== step);
    if (record.steps.length > 0) {
      this.#options.journal.put(TIMELINE_KIND, record.messageId, record);
      return;
    }
    this.#options.journal.remove(TIMELINE_KIND, record.messageId);
  }

  /** Shows the step on the phone and posts its webhook; `done` once the step needs no restart any more. */
  #emit(dispatch: Dispatch, step: Step, done: () => void): void {
    const { message } = dispatch;
    const { status, errors } = step;
    if (!('unseen' in message)) this.#options.phones.setStatus(dispatch.recipient, message, status);
    if (!this.#options.postStatuses) {
      done();
      return;
    }
    const item = statusItem({
      id: dispatch.message.id,
      status,
      at: this.#options.now(),
      recipient: dispatch.recipient,
      conversation: dispatch.conversation,
      ...(dispatch.pricing ? { pricing: dispatch.pricing } : {}),
      ...(dispatch.callbackData !== undefined ? { callbackData: dispatch.callbackData } : {}),
      ...(errors ? { errors } : {}),
    });
    this.#options.poster.enqueue(
      `status:${dispatch.message.id}`,
      messagesEnvelope(dispatch.business, { statuses: [item] }),
      { journaled: false, onSettled: done },
    );
  }
}
