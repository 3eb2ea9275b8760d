/**
 * The events the gateway publishes, written in the same transaction as the change they report (the
 * outbox), then handed to the webhook dispatcher by waking it: a committed change always has its event,
 * and an event never reports a change that was rolled back. What an event says is built by
 * src/events/payloads.ts, which the composition root passes in (EventPayloads).
 */
import type { Kysely } from 'kysely';
import type { MediaCopy, PublishReceived } from '../domain/inbound.ts';
import type { MessageStatus } from '../domain/message-status.ts';
import { messageSummary } from '../domain/message-summary.ts';
import type { InboundMessage } from '../domain/ports/inbound.ts';
import type { StatusSubject } from '../domain/ports/messages.ts';
import { inboundRepo } from './inbound-repo.ts';
import { recordReceivedInInbox } from './inbox-repo.ts';
import type { MessageHooks } from './messages-repo.ts';
import type { Database } from './schema.ts';
import { STATUS_EVENT_TYPE } from './status-with-event.ts';
import { eventPayload, insertEvent } from './webhooks-repo.ts';

/** Tells the dispatcher that new events wait (a no-op when it runs already). */
export type WakeDispatcher = () => void;

/** The data of each event, from the domain's messages. */
export interface EventPayloads {
  status(
    message: StatusSubject,
    status: MessageStatus,
    at: number,
    error: string | null,
    network?: string | null,
  ): unknown;
  received(message: InboundMessage, media?: MediaCopy): unknown;
}

/** Message hooks that write a `message.status` event with every status change. */
export function statusEvents(wake: WakeDispatcher, payloads: EventPayloads): MessageHooks {
  return {
    onStatusChange: async (trx, message, status, at, error, network) => {
      const data = () => payloads.status(message, status, at, error, network);
      if (await insertEvent(trx, message.accountId, STATUS_EVENT_TYPE, data, at)) wake();
    },
    statusEvent: {
      payload: (message, status, at, error, network, now) =>
        eventPayload(STATUS_EVENT_TYPE, now, payloads.status(message, status, at, error, network)),
      written: wake,
    },
  };
}

/**
 * Publishes a received message: marks it handled, moves its inbox conversation up (inbox-repo.ts) and
 * writes its `message.received` event, all together.
 */
export function receivedMessagePublisher(
  db: Kysely<Database>,
  wake: WakeDispatcher,
  payloads: EventPayloads,
): PublishReceived {
  return async (row, accountId, media?: MediaCopy) => {
    const written = await db.transaction().execute(async (trx) => {
      // Whichever delivery marks the message handled writes its one event; a concurrent or later
      // delivery of the same message finds it marked and writes nothing.
      if (!(await inboundRepo(trx).markHandled(row.waId, accountId, Date.now()))) return null;
      if (!accountId) return null;
      await recordReceivedInInbox(trx, {
        accountId,
        businessPhone: row.businessPhone,
        userPhone: row.userPhone,
        profileName: row.profileName,
        preview: messageSummary(row.type, row.payload),
        at: row.receivedAt,
      });
      const data = () => payloads.received(row, media);
      return insertEvent(trx, accountId, 'message.received', data, row.receivedAt);
    });
    if (written) wake();
  };
}
