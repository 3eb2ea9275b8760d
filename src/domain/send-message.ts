/**
 * The send pipeline shared by every free-form operation (docs/contract.md §3):
 * rules → sender → deduplication claim → 24-hour window → one network call → recorded outcome.
 *
 * Exactly-once toward the network rests on the database's unique (account, messageId) constraint: only the
 * request that inserted the claim calls the network; every other request with that id replays the stored
 * outcome, waits briefly for an in-flight one, or is told of the conflict.
 */

import { createHash } from 'node:crypto';
import { canonicalJson } from '../lib/canonical-json.ts';
import { newId } from '../lib/ids.ts';
import { normalizePhone } from '../lib/phone.ts';
import { isUserId, userLabel } from '../lib/user-id.ts';
import { type BulkSendOptions, takeBulkSlot } from './bulk-slots.ts';
import { type ErrorCode, errorCatalogue, GatewayError } from './errors.ts';
import { outcomeUnknown, statusDescriptions } from './message-status.ts';
import type { ResolvedTemplate } from './messages/send-operation.ts';
import type { MessagesStore, OutcomeSubject, SentMessage } from './ports/messages.ts';
import type { CloudMessage, NetworkConnector, NetworkFailure, SendResult } from './ports/network.ts';
import { repliedTo, withReply } from './reply-context.ts';
import { sendNetworkError } from './send-network-error.ts';
import { resolveSender, type SenderDeps } from './senders.ts';
import { withOwnTemplateNames } from './templates/sandbox-names.ts';
import {
  INTERRUPTED,
  recordedFailure,
  type StoredError,
  storedUnknown,
  UNKNOWN_OUTCOME_MS,
  unknownOutcomeError,
} from './unknown-outcomes.ts';

export const WINDOW_MS = 24 * 60 * 60 * 1000;
/** How long a duplicate waits for the first request with its messageId to finish before a 409. */
const IN_FLIGHT_WAIT_MS = 5_000;
/**
 * A duplicate looks again after the first pause, then after twice as long each time, up to the last: a
 * send done within tens of milliseconds is answered at once, one whose node died costs ~20 reads, not 250.
 */
const IN_FLIGHT_FIRST_POLL_MS = 20;
const IN_FLIGHT_LAST_POLL_MS = 250;

export interface SendResultData {
  messageId: string;
  waId: string;
  status: 'SENT';
  statusDesc: string;
}

/** The part of a send operation the pipeline needs; the operations live in ./messages/. */
export interface SendRules<Body, Content> {
  kind: string;
  normalize(body: Body): { ok: true; value: Content } | { ok: false; field: string; message: string };
  toCloud(content: Content, context: SendContextLike): CloudMessage;
}

export interface SendContextLike {
  flow?: { networkFlowId: string; mode: 'published' | 'draft' };
  flowToken?: string;
  template?: ResolvedTemplate;
  replyTo?: string;
  media?: { networkMediaId: string };
}

export interface CommonSendFields {
  messageId: string;
  from: string;
  to: string;
  replyTo?: string | undefined;
}

/** Resolves a flow for the flow send; returns the context to send with, or throws a GatewayError. */
export type FlowResolver = (accountId: string, content: unknown) => Promise<SendContextLike>;

export interface SendDeps extends SenderDeps {
  messages: MessagesStore;
  connector: Pick<NetworkConnector, 'sendMessage' | 'admit'>;
  windowOpenSince(businessPhone: string, userPhone: string): Promise<number | undefined>;
  resolveFlow: FlowResolver;
  /** The network's id of an upload a media send names (`mediaId`); nothing for a send by URL. */
  resolveMedia(accountId: string, senderPhone: string, content: unknown): Promise<SendContextLike>;
  /**
   * Resolves the APPROVED template a template send names (and checks its parameters and that it may go to
   * `recipient`, a phone number or a business-scoped user id), or throws.
   */
  resolveTemplate(
    accountId: string,
    senderPhone: string,
    content: unknown,
    recipient: string,
  ): Promise<SendContextLike>;
  /**
   * A claim still PENDING this long after it was made cannot belong to a request that is still running:
   * every send ends (answered, refused or timed out) well within it. Its node stopped mid-send; see
   * settleAbandonedClaim. Default: ABANDONED_CLAIM_MS.
   */
  abandonedClaimMs?: number;
  /**
   * How long a message whose outcome is unknown waits for a network status report before it is FAILED
   * (docs/adr/0013); the answer to its send says so. Default: UNKNOWN_OUTCOME_MS.
   */
  unknownOutcomeMs?: number;
  now?: () => number;
}

export const ABANDONED_CLAIM_MS = 5 * 60 * 1000;

function phoneField(field: 'from' | 'to', raw: string): string {
  const phone = normalizePhone(raw);
  if (!phone)
    throw new GatewayError('invalid_request', `\`${field}\` must be a valid phone number with country code`, {
      field,
    });
  return phone;
}

/**
 * The answer a repeated request gets: the network took the message (it has a network id, whatever its status
 * now), or the stored error the first request was answered with, an unknown outcome's included.
 */
function replay(row: SentMessage): SendResultData {
  if (row.waId === null) throw failureFromStored(row);
  return {
    messageId: row.clientMessageId,
    waId: row.waId,
    status: 'SENT',
    statusDesc: statusDescriptions.SENT,
  };
}

const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(errorCatalogue, code);

function failureFromStored(row: SentMessage): GatewayError {
  const stored = row.error ? (JSON.parse(row.error) as Partial<StoredError>) : undefined;
  const networkCode = stored?.network?.code;
  return new GatewayError(
    isErrorCode(stored?.code) ? stored.code : 'network_rejected',
    stored?.message ?? 'the message was not sent',
    typeof networkCode === 'number' && networkCode !== 0 ? { networkCode } : {},
  );
}

async function waitForOutcome(
  messages: MessagesStore,
  accountId: string,
  clientMessageId: string,
): Promise<SentMessage | undefined> {
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  for (let pause = IN_FLIGHT_FIRST_POLL_MS; Date.now() < deadline; pause *= 2) {
    await new Promise((r) => setTimeout(r, Math.min(pause, IN_FLIGHT_LAST_POLL_MS, deadline - Date.now())));
    const row = await messages.findByClientId(accountId, clientMessageId);
    if (row?.status !== 'PENDING' || outcomeUnknown(row)) return row;
  }
  return messages.findByClientId(accountId, clientMessageId);
}

/**
 * Who a send is for, as the gateway keys users (src/domain/ports/conversations.ts): a phone number, or a
 * business-scoped user id (docs/cloud-api.md §10), which becomes the number a message of theirs linked it
 * to, if any, so that their sandbox and window are found whichever way they are named.
 */
async function recipientKey(deps: SendDeps, from: string, raw: string): Promise<string> {
  if (!isUserId(raw)) return phoneField('to', raw);
  return (await deps.conversations.phoneOfUser(from, raw)) ?? raw;
}

export async function sendMessage<Body extends CommonSendFields, Content>(
  deps: SendDeps,
  accountId: string,
  rules: SendRules<Body, Content>,
  body: Body,
  options: BulkSendOptions = {},
): Promise<SendResultData> {
  const now = deps.now ?? Date.now;
  const checked = rules.normalize(body);
  if (!checked.ok) throw new GatewayError('invalid_request', checked.message, { field: checked.field });
  const from = phoneField('from', body.from);
  const to = await recipientKey(deps, from, body.to);
  if (from === to) throw new GatewayError('invalid_request', '`to` must differ from `from`', { field: 'to' });

  const sender = await resolveSender(deps, accountId, from, to);
  const context =
    rules.kind === 'flow'
      ? await deps.resolveFlow(accountId, checked.value)
      : rules.kind === 'template'
        ? await deps.resolveTemplate(accountId, sender.phone, checked.value, to)
        : rules.kind === 'media'
          ? await deps.resolveMedia(accountId, sender.phone, checked.value)
          : {};
  const replyTo =
    body.replyTo === undefined ? {} : { replyTo: await repliedTo(deps.messages, accountId, body.replyTo) };
  const cloud = withReply(rules.toCloud(checked.value, { ...context, ...replyTo }), replyTo.replyTo);
  // `replyTo` is hashed only when sent, so the hash of every request without it stays as it always was.
  const requestHash = createHash('sha256')
    .update(canonicalJson({ kind: rules.kind, from, to, content: checked.value, ...replyTo }))
    .digest('hex');

  const bulk = options.priority === 'bulk';
  const deadline = options.deadline ?? Number.POSITIVE_INFINITY;
  if (bulk) await takeBulkSlot(deps.connector, sender.credentials, options, now);
  for (let attempt = 0; attempt < 3; attempt++) {
    const startedAt = now();
    if (startedAt > deadline)
      throw new GatewayError('conflict', 'this bulk send is given back to be sent later');
    const id = newId('msg', startedAt);
    const holder = await deps.messages.reserve({
      id,
      accountId,
      clientMessageId: body.messageId,
      requestHash,
      kind: rules.kind,
      fromPhone: from,
      toPhone: to,
      content: JSON.stringify(cloud),
      createdAt: startedAt,
      updatedAt: startedAt,
    });
    if (holder) {
      const answer = await answerForHolder(deps, holder, requestHash, now);
      if (answer) return answer;
      continue; // the first request released its claim (nothing was sent): try to claim it
    }
    const claim = { id, accountId, clientMessageId: body.messageId, fromPhone: from, toPhone: to };
    return await sendClaimed(deps, claim, sender, to, cloud, now, bulk);
  }
  throw new GatewayError('conflict', `messageId "${body.messageId}" is contended; retry shortly`, {
    field: 'messageId',
  });
}

/**
 * What a request gets when another holds its messageId: a conflict for a different message, else that
 * request's outcome (replayed, settled if its node stopped, or awaited briefly); undefined when the holder
 * gave the claim back meanwhile, so this request may claim it.
 */
async function answerForHolder(
  deps: SendDeps,
  holder: SentMessage,
  requestHash: string,
  now: () => number,
): Promise<SendResultData | undefined> {
  const { clientMessageId } = holder;
  if (holder.requestHash !== requestHash) {
    throw new GatewayError(
      'conflict',
      `messageId "${clientMessageId}" was already used for a different message; use a new messageId`,
      { field: 'messageId' },
    );
  }
  if (holder.status !== 'PENDING' || outcomeUnknown(holder)) return replay(holder);
  const abandonedBefore = now() - (deps.abandonedClaimMs ?? ABANDONED_CLAIM_MS);
  if (holder.createdAt <= abandonedBefore) return replay(await settleAbandonedClaim(deps, holder, now));
  const settled = await waitForOutcome(deps.messages, holder.accountId, clientMessageId);
  if (!settled) return undefined;
  if (settled.status === 'PENDING' && !outcomeUnknown(settled)) {
    throw new GatewayError(
      'conflict',
      `A request with messageId "${clientMessageId}" is still in progress; retry shortly`,
      { field: 'messageId' },
    );
  }
  return replay(settled);
}

/**
 * A claim left PENDING by a node that stopped mid-send (crash, kill -9, power loss). Whether the network
 * received the message is unknown, so, as for a timeout (docs/adr/0013), it becomes an unknown outcome that
 * the network's status reports settle, or the sweep fails; it is never sent again under this messageId.
 * Without this, every retry would be told "still in progress" until the sweep came by.
 */
async function settleAbandonedClaim(
  deps: SendDeps,
  holder: SentMessage,
  now: () => number,
): Promise<SentMessage> {
  // Guarded: if the send did finish meanwhile, or a status or the sweep came first, that stands.
  await deps.messages.markUnknown(
    holder.id,
    now(),
    storedUnknown(INTERRUPTED, deps.unknownOutcomeMs ?? UNKNOWN_OUTCOME_MS),
  );
  return (await deps.messages.findByClientId(holder.accountId, holder.clientMessageId)) ?? holder;
}

/** The claim a request holds: the message's own id and the account's messageId it answers for. */
/** The message this request claimed, as its outcome's event speaks of it. */
type Claim = OutcomeSubject;

/** What the network said, with the account's sandbox template names as the account gave them (ADR 0008). */
function withOwnNames(result: SendResult, accountId: string): SendResult {
  if (result.ok) return result;
  const { failure } = result;
  return {
    ok: false,
    failure: {
      ...failure,
      title: withOwnTemplateNames(failure.title, accountId),
      details: withOwnTemplateNames(failure.details, accountId),
    },
  };
}

/** A connector that threw instead of answering: a bug, not a network answer; what was sent is unknown. */
const CONNECTOR_FAILED: NetworkFailure = {
  kind: 'unknown_outcome',
  cause: 'internal',
  code: 0,
  httpStatus: 0,
  title: 'internal error',
  details: 'the send failed inside the gateway',
};

async function sendClaimed(
  deps: SendDeps,
  claim: Claim,
  sender: Awaited<ReturnType<typeof resolveSender>>,
  to: string,
  cloud: CloudMessage,
  now: () => number,
  bulk: boolean,
): Promise<SendResultData> {
  try {
    // Templates are the one message allowed outside the window: they are how a conversation opens.
    if (sender.enforceWindow && cloud.type !== 'template') {
      const last = sender.lastInbound ? sender.lastInbound.at : await deps.windowOpenSince(sender.phone, to);
      if (last === undefined || last < now() - WINDOW_MS) {
        throw new GatewayError(
          'session_closed',
          `No conversation with ${userLabel(to)} is open: the user has not written to +${sender.phone} in the last 24 hours, so the first message must be a template message`,
        );
      }
    }
  } catch (error) {
    await deps.messages.release(claim.id);
    throw error;
  }
  let result: Awaited<ReturnType<NetworkConnector['sendMessage']>>;
  try {
    // The message's own id rides along: the network's status reports name it (docs/adr/0013).
    result = withOwnNames(
      await deps.connector.sendMessage(sender.credentials, to, cloud, {
        callbackData: claim.id,
        ...(bulk ? { priority: 'bulk', admitted: Boolean(deps.connector.admit) } : {}),
      }),
      claim.accountId,
    );
  } catch (error) {
    const unknownOutcomeMs = deps.unknownOutcomeMs ?? UNKNOWN_OUTCOME_MS;
    await deps.messages.markUnknown(claim.id, now(), storedUnknown(CONNECTOR_FAILED, unknownOutcomeMs));
    throw error;
  }
  if (result.ok) {
    await deps.messages.markAccepted(claim, result.waId, now());
    return {
      messageId: claim.clientMessageId,
      waId: result.waId,
      status: 'SENT',
      statusDesc: statusDescriptions.SENT,
    };
  }
  if (result.failure.kind === 'unknown_outcome')
    return answerUnknownOutcome(deps, claim, result.failure, now);
  const clientError = sendNetworkError(result.failure, to, deps.unknownOutcomeMs ?? UNKNOWN_OUTCOME_MS);
  if (result.failure.kind === 'transient') {
    await deps.messages.release(claim.id); // the network said it took nothing: the same messageId may be retried
  } else {
    const stored: StoredError = {
      httpStatus: clientError.status,
      code: clientError.code,
      message: clientError.message,
      network: recordedFailure(result.failure),
    };
    await deps.messages.markFailed(claim, now(), JSON.stringify(stored));
  }
  throw clientError;
}

/**
 * The network may or may not have taken the message: it stays open for the network's status reports
 * (docs/adr/0013), and the client is told so. A report that settled it while the answer was awaited wins.
 */
async function answerUnknownOutcome(
  deps: SendDeps,
  claim: Claim,
  failure: NetworkFailure,
  now: () => number,
): Promise<SendResultData> {
  const unknownOutcomeMs = deps.unknownOutcomeMs ?? UNKNOWN_OUTCOME_MS;
  if (!(await deps.messages.markUnknown(claim.id, now(), storedUnknown(failure, unknownOutcomeMs)))) {
    const settled = await deps.messages.findByClientId(claim.accountId, claim.clientMessageId);
    if (settled?.waId) return replay(settled);
  }
  throw unknownOutcomeError(failure, unknownOutcomeMs);
}
