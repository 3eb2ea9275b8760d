/**
 * What happens when a user writes to a business number (docs/contract.md §1, §3):
 * - every inbound message opens or extends the 24-hour window of (business number, user);
 * - on the sandbox number, `join <code>` binds the user to the account whose code it is, `stop`/`leave`
 *   unbinds, and any other message is routed to the account the user joined;
 * - the message is stored once per network id (the network may deliver a webhook more than once), and
 *   published exactly once: its account and its `message.received` event are written in one transaction
 *   that also marks it handled. Routing and the media copy happen between storing and publishing, outside
 *   any transaction (the copy is slow network I/O); a delivery interrupted there (an error, a crash, a
 *   kill -9) was not answered 200, so the network delivers it again, and that redelivery finds the message
 *   stored but not handled and completes it (docs/adr/0018-inbound-messages-completed-on-redelivery.md).
 */

import { newId } from '../lib/ids.ts';
import { isUserId } from '../lib/user-id.ts';
import { NUMBER_LIMIT_CODES } from './campaigns/network-signals.ts';
import { type JoinLimits, waitInWords } from './join-limits.ts';
import { fromNetworkStatus } from './message-status.ts';
import {
  applyOptOutKeyword,
  NOT_ACCEPTING_MARKETING,
  type OptOutKeywords,
  optOutByNetwork,
} from './opt-outs.ts';
import type { AccountsStore } from './ports/accounts.ts';
import { ContactKeyTaken, type ContactsStore } from './ports/contacts.ts';
import type { ConversationsStore } from './ports/conversations.ts';
import type { InboundMessage, InboundStore } from './ports/inbound.ts';
import type { MessagesStore } from './ports/messages.ts';
import type { NetworkConnector } from './ports/network.ts';
import type { InboundMessageEvent, StatusEvent } from './ports/network-events.ts';
import type { NumbersStore } from './ports/numbers.ts';
import type { OptOutsStore } from './ports/opt-outs.ts';
import type { SandboxSettings } from './senders.ts';
import { settleFromStatus } from './unknown-outcomes.ts';

/** What became of a media message's file: a stable signed link to the gateway's copy, or why not. */
export type MediaCopy = { url: string } | { error: string };

/**
 * Marks the message handled with its account (null: nobody's) and writes its `message.received` event, in
 * one transaction; writes nothing when another delivery of the message got there first.
 */
export type PublishReceived = (
  row: InboundMessage,
  accountId: string | null,
  media?: MediaCopy,
) => Promise<void>;

/** Message types whose content is a file on the network, fetched with the message's media id. */
const MEDIA_TYPES = new Set(['image', 'video', 'audio', 'document', 'sticker']);

export interface InboundDeps {
  sandbox: SandboxSettings;
  accounts: AccountsStore;
  numbers: NumbersStore;
  conversations: ConversationsStore;
  inbound: InboundStore;
  messages: MessagesStore;
  connector: NetworkConnector;
  publishReceived: PublishReceived;
  /** Copies a user's media from the network into the gateway's storage (network links expire in minutes). */
  copyMedia(accountId: string, event: InboundMessageEvent, mediaId: string): Promise<MediaCopy>;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  /** Attempts of `join <code>` per phone and per sandbox, against guessing codes. */
  joinLimits: JoinLimits;
  optOuts: OptOutsStore;
  optOutKeywords: OptOutKeywords;
  contacts: ContactsStore;
  /** Called when a change recorded an event for webhook endpoints (an opt-out). */
  wakeDispatcher(): void;
  /** A message of the number failed with `code`: campaigns/network-signals.ts judges whether to pause. */
  onSendFailure(businessPhone: string, code: number): Promise<void>;
}

const JOIN = /^join\s+([a-z0-9-]{3,64})$/i;
const LEAVE = /^(stop|leave)$/i;

function textOf(event: InboundMessageEvent): string | undefined {
  const text = event.message.text as { body?: unknown } | undefined;
  return typeof text?.body === 'string' ? text.body.trim() : undefined;
}

async function replyFromSandbox(deps: InboundDeps, to: string, body: string): Promise<void> {
  const { phoneNumberId, accessToken } = deps.sandbox;
  const result = await deps.connector.sendMessage({ phoneNumberId, accessToken }, to, {
    type: 'text',
    text: { body },
  });
  if (!result.ok) deps.logger.warn({ to, failure: result.failure }, 'sandbox reply was not sent');
}

/**
 * The key a user is known by on this number (docs/cloud-api.md §10): their phone number when the network
 * gave it or an earlier message linked it to their business-scoped id, else that id. Every message that
 * carries both links them, so a user whose number is later withheld keeps their sandbox, window and log.
 */
async function userKeyOf(
  deps: InboundDeps,
  businessPhone: string,
  event: InboundMessageEvent,
): Promise<string> {
  const { userPhone, userId, username } = event;
  if (!userId) return userPhone!;
  const known = await deps.conversations.phoneOfUser(businessPhone, userId);
  if (userPhone) {
    if (known !== userPhone) {
      await deps.conversations.linkUser(businessPhone, { userId, phone: userPhone, username }, event.at);
      await deps.conversations.adoptUser(businessPhone, userId, userPhone);
    }
    return userPhone;
  }
  if (!known) await deps.conversations.linkUser(businessPhone, { userId, phone: null, username }, event.at);
  return known ?? userId;
}

/** Handles the sandbox commands; returns the account the message belongs to (null: nobody's). */
async function routeSandboxMessage(
  deps: InboundDeps,
  event: InboundMessageEvent,
  user: string,
): Promise<string | null> {
  const sandboxPhone = deps.sandbox.phone;
  const text = textOf(event);
  const join = text ? JOIN.exec(text) : null;
  if (join) {
    // Decided before the code is looked up: a refusal is the same whether the code is right or not.
    const waitSeconds = await deps.joinLimits.admit(sandboxPhone, user);
    if (waitSeconds !== null) {
      await replyFromSandbox(
        deps,
        user,
        `Too many join attempts. Wait ${waitInWords(waitSeconds)}, then send the code again.`,
      );
      return null;
    }
    const account = await deps.accounts.findAccountByJoinCode(join[1]!.toLowerCase());
    if (!account) {
      await replyFromSandbox(
        deps,
        user,
        `"${join[1]}" is not a known join code. Check the code in your settings and try again.`,
      );
      return null;
    }
    await deps.conversations.joinSandbox(sandboxPhone, user, account.id, event.at);
    await replyFromSandbox(
      deps,
      user,
      `You are connected to the ${account.name} sandbox. Reply "stop" to leave.`,
    );
    return account.id;
  }
  const accountId = (await deps.conversations.sandboxAccountOf(sandboxPhone, user)) ?? null;
  if (text && LEAVE.test(text)) {
    if (await deps.conversations.leaveSandbox(sandboxPhone, user)) {
      await replyFromSandbox(deps, user, 'You left the sandbox. Send "join <code>" to connect again.');
    }
    return accountId;
  }
  if (accountId === null) {
    // Nobody's: the user is told how to connect (as a shared sandbox does), and the log says why no
    // account heard of the message. The reply goes inside the window their own message opened.
    deps.logger.info(
      { waId: event.waId },
      'sandbox message from a user who has not joined; no account gets it',
    );
    await replyFromSandbox(
      deps,
      user,
      'You are not connected to a sandbox yet. Send "join <code>" with the join code of the business you are testing with.',
    );
  }
  return accountId;
}

/**
 * A user who changed their number (a `system` message, `user_changed_number`; older payloads say
 * `customer_changed_number` and `new_wa_id`) keeps their sandbox membership and window under the new one.
 * The message itself still belongs to the old number's account, which hears of the change through it.
 */
async function followNumberChange(deps: InboundDeps, row: InboundMessage, event: InboundMessageEvent) {
  if (event.type !== 'system') return;
  const system = event.message.system as { type?: unknown; wa_id?: unknown; new_wa_id?: unknown } | undefined;
  if (system?.type !== 'user_changed_number' && system?.type !== 'customer_changed_number') return;
  const next = system.wa_id ?? system.new_wa_id;
  if (typeof next !== 'string' || !/^\d{1,20}$/.test(next) || next === row.userPhone) return;
  await deps.conversations.adoptUser(row.businessPhone, row.userPhone, next);
}

/**
 * A user who writes to the account is one of its contacts (contacts.ts), named by their profile. The
 * contact book never stands in the way of a message: if it cannot take the sender (their number and user
 * id are two contacts' already), that is logged and the message is handled all the same.
 */
async function rememberContact(deps: InboundDeps, accountId: string, row: InboundMessage, at: number) {
  const phone = isUserId(row.userPhone) ? null : row.userPhone;
  try {
    await deps.contacts.rememberSender(accountId, { phone, userId: row.userId, name: row.profileName }, at);
  } catch (error) {
    if (!(error instanceof ContactKeyTaken)) throw error;
    deps.logger.warn({ accountId, waId: row.waId }, 'the sender is two contacts already; contacts unchanged');
  }
}

/** The message as stored by its first delivery: a redelivery is completed with what was stored. */
function storedEvent(row: InboundMessage, event: InboundMessageEvent): InboundMessageEvent {
  return {
    ...event,
    userId: row.userId,
    username: row.username,
    profileName: row.profileName,
    at: row.receivedAt,
    type: row.type,
    message: JSON.parse(row.payload) as Record<string, unknown>,
  };
}

async function copyMediaOf(deps: InboundDeps, accountId: string, event: InboundMessageEvent) {
  if (!MEDIA_TYPES.has(event.type)) return undefined;
  const content = event.message[event.type];
  const mediaId =
    typeof content === 'object' && content !== null ? (content as { id?: unknown }).id : undefined;
  // Fetched at once, before the event goes out: the receiver gets a link that still works in a week.
  return typeof mediaId === 'string' ? await deps.copyMedia(accountId, event, mediaId) : undefined;
}

export async function handleInboundMessage(deps: InboundDeps, event: InboundMessageEvent): Promise<void> {
  const isSandbox = event.phoneNumberId === deps.sandbox.phoneNumberId;
  const number = isSandbox ? undefined : await deps.numbers.findNumberByPhoneNumberId(event.phoneNumberId);
  if (!isSandbox && !number) {
    deps.logger.warn(
      { phoneNumberId: event.phoneNumberId },
      'inbound message for a phone-number id no account owns; ignored',
    );
    return;
  }
  const businessPhone = isSandbox ? deps.sandbox.phone : number!.phone;
  const user = await userKeyOf(deps, businessPhone, event);
  // Stored first without an account: the row's unique network id is what makes a repeated webhook a
  // no-op, and a sandbox message learns its account only once its command (join/stop) is handled.
  const candidate: InboundMessage = {
    id: newId('in', event.at),
    accountId: null,
    waId: event.waId,
    businessPhone,
    userPhone: user,
    userId: event.userId,
    username: event.username,
    profileName: event.profileName,
    type: event.type,
    payload: JSON.stringify(event.message),
    receivedAt: event.at,
    handledAt: null,
  };
  const row = await deps.inbound.storeOnce(candidate);
  if (!row) return; // a repeated delivery of a message already handled
  const stored = row === candidate ? event : storedEvent(row, event);
  // Each step up to the publish may run again on a redelivery: the window keeps the later time, a join
  // binds the same account again (its confirmation may be sent twice), a media file may be copied twice.
  // The key of the first delivery: a redelivery is the same user, whatever was linked since.
  await deps.conversations.recordInbound(row.businessPhone, row.userPhone, stored.at);
  const accountId = isSandbox ? await routeSandboxMessage(deps, stored, row.userPhone) : number!.accountId;
  // On the account's own numbers a keyword opts the user out of marketing, or back in (opt-outs.ts); the
  // message is published all the same. The sandbox's own `stop` leaves the sandbox instead.
  const text = textOf(stored);
  if (!isSandbox && accountId && text) {
    const message = { businessPhone: row.businessPhone, user: row.userPhone, text, at: stored.at };
    if (await applyOptOutKeyword(deps.optOuts, deps.optOutKeywords, accountId, message))
      deps.wakeDispatcher();
  }
  if (accountId) await rememberContact(deps, accountId, row, stored.at);
  await followNumberChange(deps, row, stored);
  const media = accountId ? await copyMediaOf(deps, accountId, stored) : undefined;
  await deps.publishReceived(row, accountId, media);
}

/**
 * The network refused a message because its user does not accept marketing (131050): the user is opted
 * out of that number's marketing, as if they had sent STOP. Only on the account's own numbers.
 */
async function optOutOf(deps: InboundDeps, event: StatusEvent): Promise<void> {
  if (event.phoneNumberId === deps.sandbox.phoneNumberId) return;
  const message = await deps.messages.findByNetworkId(event.waId);
  if (!message) return;
  const optOut = { businessPhone: message.fromPhone, user: message.toPhone, at: event.at };
  if (await optOutByNetwork(deps.optOuts, message.accountId, optOut)) deps.wakeDispatcher();
}

export async function handleStatus(deps: InboundDeps, event: StatusEvent): Promise<void> {
  const status = fromNetworkStatus(event.status);
  if (!status) return; // a status kind the gateway does not track
  const error = event.errors.length ? JSON.stringify(event.errors[0]) : null;
  // The network's status as it arrived, less the tag the gateway's own send put there (docs/adr/0013).
  const { biz_opaque_callback_data: _tag, ...network } = event.network;
  if (!(await deps.messages.applyNetworkStatus(event.waId, status, event.at, error, network))) {
    // No message has this network id yet: the status may name one whose send's answer was lost (or is
    // still awaited) by the id the send carried. Settling it applies this status, which waits meanwhile.
    await settleFromStatus(deps, event);
  }
  // Also on a repeated delivery, which applies nothing: a crash after the status was applied must not
  // lose the opt-out, and a second opt-out of the same user changes nothing.
  const code = event.errors[0]?.code;
  if (status === 'FAILED' && code === NOT_ACCEPTING_MARKETING) await optOutOf(deps, event);
  else if (status === 'FAILED' && code !== undefined && NUMBER_LIMIT_CODES.has(code)) {
    const message = await deps.messages.findByNetworkId(event.waId);
    if (message) await deps.onSendFailure(message.fromPhone, code);
  }
}
