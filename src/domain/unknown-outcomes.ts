/**
 * Sends whose outcome is unknown (docs/adr/0013-settling-unknown-outcomes.md): the network may or may not
 * have taken the message (its answer timed out, the connection broke, the node stopped mid-send). Such a
 * message is not FAILED: it stays PENDING with the reason, and is settled by the network's own word.
 *
 * - Every send carries the gateway's message id as `biz_opaque_callback_data`; the network echoes it in each
 *   status webhook. The first status naming an open message records its network id and moves it on.
 * - A status settles only a message sent from the business number the status came for (and, for a number
 *   that is not the shared sandbox, by the account owning that number) to the same subscriber: an id named
 *   in a status for another number or account is ignored.
 * - What no status settles within the configured time is FAILED by a sweep that any number of nodes may run
 *   at once: each move is one guarded update.
 */

import { isUserId } from '../lib/user-id.ts';
import type { GatewayError } from './errors.ts';
import { judgeFailure, networkFailureError } from './network-failure-errors.ts';
import type { StatusSender, UnsettledStore } from './ports/messages.ts';
import type { NetworkFailure } from './ports/network.ts';
import type { StatusEvent } from './ports/network-events.ts';

/** Default of NETWORK_UNKNOWN_OUTCOME_MS: the network reports a message it took within seconds. */
export const UNKNOWN_OUTCOME_MS = 5 * 60 * 1000;
/** Messages one sweep pass moves at most; a full pass is followed by another at once. */
export const SWEEP_BATCH = 100;

/**
 * A network failure as a message's error records it, and as its status API and events show it: without
 * `cause`, which is for the gateway's own decisions, so that what clients read keeps its one shape.
 */
export type RecordedFailure = Omit<NetworkFailure, 'cause'>;

export function recordedFailure(failure: NetworkFailure): RecordedFailure {
  const { cause: _decidedBy, ...recorded } = failure;
  return recorded;
}

/** A message's stored error: what its sender was answered (and every replay is), and the network's part. */
export interface StoredError {
  httpStatus: number;
  code: string;
  message: string;
  network?: RecordedFailure;
}

/** `300 ms`, `45 s`, `5 min`: as a person would say the configured time. */
export function spokenDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** The answer to a send whose outcome is unknown; replays repeat it until the message is settled. */
export function unknownOutcomeError(failure: NetworkFailure, unknownOutcomeMs: number): GatewayError {
  return networkFailureError(
    judgeFailure(failure),
    `The network did not confirm the message (${failure.title}: ${failure.details}), so its outcome is not yet known: the network's status reports will settle it, or it is marked FAILED if none arrives within ${spokenDuration(unknownOutcomeMs)}; check its status instead of sending it again under another messageId`,
  );
}

/** The stored form of an unknown outcome: the answer given, and the network failure behind it. */
export function storedUnknown(failure: NetworkFailure, unknownOutcomeMs: number): string {
  const error = unknownOutcomeError(failure, unknownOutcomeMs);
  const stored: StoredError = {
    httpStatus: error.status,
    code: error.code,
    message: error.message,
    network: recordedFailure(failure),
  };
  return JSON.stringify(stored);
}

/** A claim left PENDING by a node that stopped mid-send: whether the network took it is unknown. */
export const INTERRUPTED: NetworkFailure = {
  kind: 'unknown_outcome',
  cause: 'interrupted',
  code: 0,
  httpStatus: 0,
  title: 'send interrupted',
  details: 'the gateway stopped while sending it',
};

/** The stored error of an unknown outcome no status report settled in time. */
export function expiredOutcome(storedJson: string, unknownOutcomeMs: number): string {
  let stored: Partial<StoredError> = {};
  try {
    stored = JSON.parse(storedJson) as StoredError;
  } catch {
    // Not written by this code: the fallbacks below still say what happened.
  }
  const failure = stored.network ?? recordedFailure(INTERRUPTED);
  const within = spokenDuration(unknownOutcomeMs);
  const expired: StoredError = {
    httpStatus: stored.httpStatus ?? 502,
    code: stored.code ?? 'network_error',
    message: `The network did not confirm the message (${failure.title}: ${failure.details}) and no status report for it arrived within ${within}, so it is marked FAILED; it will not be sent again under this messageId`,
    network: { ...failure, details: `${failure.details}; no status report within ${within}` },
  };
  return JSON.stringify(expired);
}

/**
 * Whether a status's `recipient_id` names the subscriber a message was sent to. WhatsApp ids can differ
 * from the number dialled by a mobile prefix digit after the country code (Brazil, Mexico, Argentina), so
 * the same start and the same last eight digits count as the same subscriber.
 */
export function sameSubscriber(dialled: string, recipientId: string): boolean {
  if (dialled === recipientId) return true;
  if (!/^\d{8,15}$/.test(recipientId) || dialled.length < 8) return false;
  return dialled.slice(0, 2) === recipientId.slice(0, 2) && dialled.slice(-8) === recipientId.slice(-8);
}

/**
 * Whether a status may be for a message sent to `dialled`: a send to a business-scoped user id is checked
 * against the status's `recipient_user_id`, a send to a number against its `recipient_id`; a status that
 * names no comparable id is not contradicted.
 */
export function sameRecipient(
  dialled: string,
  event: Pick<StatusEvent, 'recipient' | 'recipientUserId'>,
): boolean {
  if (isUserId(dialled)) return event.recipientUserId === null || event.recipientUserId === dialled;
  return event.recipient === null || sameSubscriber(dialled, event.recipient);
}

export interface SettleDeps {
  sandbox: { phone: string; phoneNumberId: string };
  numbers: {
    findNumberByPhoneNumberId(id: string): Promise<{ phone: string; accountId: string } | undefined>;
  };
  messages: Pick<UnsettledStore, 'findOpenFor' | 'settleFromNetwork'>;
}

/** The business number a status came for, as its messages are stored; undefined when it is not ours. */
async function senderOf(deps: SettleDeps, phoneNumberId: string): Promise<StatusSender | undefined> {
  if (phoneNumberId === deps.sandbox.phoneNumberId) return { phone: deps.sandbox.phone, accountId: null };
  const number = await deps.numbers.findNumberByPhoneNumberId(phoneNumberId);
  return number ? { phone: number.phone, accountId: number.accountId } : undefined;
}

/**
 * A status for a network id no message has: if it names an open message by the id its send carried, the
 * network took that message. Returns whether it settled one.
 */
export async function settleFromStatus(deps: SettleDeps, event: StatusEvent): Promise<boolean> {
  if (!event.callbackData) return false;
  const sender = await senderOf(deps, event.phoneNumberId);
  if (!sender) return false;
  const message = await deps.messages.findOpenFor(event.callbackData, sender);
  if (!message) return false;
  if (!sameRecipient(message.toPhone, event)) return false;
  return deps.messages.settleFromNetwork(message.id, sender, event.waId, event.at);
}

export interface SweepDeps {
  messages: Pick<UnsettledStore, 'listUnsettled' | 'markUnknown' | 'failUnsettled'>;
  /** Older than this, a claim no send finished was left by a node that stopped (send-message.ts). */
  abandonedClaimMs: number;
  unknownOutcomeMs: number;
  now: () => number;
}

/**
 * One pass of the sweep: abandoned claims become unknown outcomes (from now), and unknown outcomes older
 * than `unknownOutcomeMs` become FAILED, with their `message.status` event. Returns how many it looked at.
 */
export async function sweepUnsettled(deps: SweepDeps): Promise<number> {
  const now = deps.now();
  const due = await deps.messages.listUnsettled(
    now - deps.abandonedClaimMs,
    now - deps.unknownOutcomeMs,
    SWEEP_BATCH,
  );
  for (const message of due) {
    // Each move is guarded: a status report or another node that got there first wins, and this is a no-op.
    if (message.error === null)
      await deps.messages.markUnknown(message.id, now, storedUnknown(INTERRUPTED, deps.unknownOutcomeMs));
    else
      await deps.messages.failUnsettled(
        message.id,
        now,
        expiredOutcome(message.error, deps.unknownOutcomeMs),
      );
  }
  return due.length;
}
