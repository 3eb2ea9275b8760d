/**
 * What happens to an accepted message on the simulated network (docs/cloud-api.md §1.2, §3.5, §8): `sent` at
 * once, `delivered` after statusDelayMs, `read` after another statusDelayMs when the virtual user reads
 * what arrives; or a single `failed` with the reason. Each step updates the virtual phone and queues a
 * signed `statuses` webhook; the webhooks of one message share a queue, so `read` never overtakes
 * `delivered`.
 */

import type { DeliveryStatus, PhoneBook, ReceivedMessage } from './phone-book.ts';
import type { Scheduler } from './scheduler.ts';
import { messagesEnvelope, statusItem } from './webhook-envelopes.ts';
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
  now: () => number;
}

export interface Dispatch {
  business: string;
  recipient: string;
  message: ReceivedMessage;
  conversation: Conversation | null;
  callbackData?: string;
}

export class StatusTimeline {
  readonly #options: TimelineOptions;

  constructor(options: TimelineOptions) {
    this.#options = options;
  }

  delivered(dispatch: Dispatch): void {
    const { scheduler, statusDelayMs } = this.#options;
    scheduler.after(0, () => this.#emit(dispatch, 'sent'));
    scheduler.after(statusDelayMs, () => this.#emit(dispatch, 'delivered'));
    if (this.#options.autoRead) scheduler.after(2 * statusDelayMs, () => this.#emit(dispatch, 'read'));
  }

  /** Production reports most refusals this way: 200 to the send, then a failed status (docs/cloud-api.md §8). */
  failed(dispatch: Dispatch, error: unknown): void {
    this.#options.scheduler.after(this.#options.statusDelayMs, () => this.#emit(dispatch, 'failed', [error]));
  }

  #emit(dispatch: Dispatch, status: DeliveryStatus, errors?: unknown[]): void {
    this.#options.phones.setStatus(dispatch.recipient, dispatch.message, status);
    if (!this.#options.postStatuses) return;
    const item = statusItem({
      id: dispatch.message.id,
      status,
      at: this.#options.now(),
      recipient: dispatch.recipient,
      conversation: dispatch.conversation,
      ...(dispatch.callbackData !== undefined ? { callbackData: dispatch.callbackData } : {}),
      ...(errors ? { errors } : {}),
    });
    this.#options.poster.enqueue(
      `status:${dispatch.message.id}`,
      messagesEnvelope(dispatch.business, { statuses: [item] }),
    );
  }
}
