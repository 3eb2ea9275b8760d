/**
 * What Meta posts to `/webhooks/network` when a user writes to the sandbox number (docs/cloud-api.md §3): for
 * suites that forge, sign or replay the network's webhooks by hand.
 */
import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import type { Database } from '../../src/store/schema.ts';

/**
 * The app secret tests give explicitly to gateways they start as processes. A gateway started in this
 * process by startGateway derives its own per install; it is remembered here by base URL.
 */
export const NETWORK_APP_SECRET = 'test-network-app-secret';
const appSecrets = new Map<string, string>();

export function rememberAppSecret(baseUrl: string, appSecret: string): void {
  appSecrets.set(baseUrl, appSecret);
}

type Json = Record<string, unknown>;

/** Unix seconds as Meta writes them: a decimal string. */
export const unixSeconds = (ms = Date.now()) => String(Math.floor(ms / 1000));

/** One `messages` change of the sandbox number, with the contacts of the users who wrote. */
export function messagesChange(messages: Json[], contacts: Json[] = [], extra: Json = {}) {
  return {
    field: 'messages',
    value: {
      messaging_product: 'whatsapp',
      metadata: { display_phone_number: DEFAULT_SANDBOX_NUMBER, phone_number_id: DEFAULT_SANDBOX_NUMBER },
      contacts,
      messages,
      ...extra,
    },
  };
}

export function envelope(changes: Json[][]) {
  return {
    object: 'whatsapp_business_account',
    entry: changes.map((c) => ({ id: DEFAULT_SANDBOX_NUMBER, changes: c })),
  };
}

/** A user's text message as Meta shapes it; `overrides` replaces or adds fields. */
export function textMessage(user: string, waId: string, text: string, overrides: Json = {}): Json {
  return { from: user, id: waId, timestamp: unixSeconds(), type: 'text', text: { body: text }, ...overrides };
}

export function inboundTextEnvelope(user: string, waId: string, text: string, profileName = 'Zoë') {
  return envelope([
    [messagesChange([textMessage(user, waId, text)], [{ profile: { name: profileName }, wa_id: user }])],
  ]);
}

export const signNetworkBody = (raw: string, secret = NETWORK_APP_SECRET) =>
  `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** POSTs a body (an object, or raw text) to the gateway's network webhook, correctly signed. */
export async function postNetworkWebhook(baseUrl: string, body: unknown) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const r = await fetch(`${baseUrl}/webhooks/network`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hub-signature-256': signNetworkBody(raw, appSecrets.get(baseUrl)),
    },
    body: raw,
  });
  return { status: r.status, text: await r.text() };
}

/** The `message.received` events written for one network message id. */
export async function receivedEventsOf(db: Kysely<Database>, waId: string): Promise<Json[]> {
  const rows = await db
    .selectFrom('events')
    .select('payload')
    .where('type', '=', 'message.received')
    .execute();
  return rows
    .map((r) => JSON.parse(r.payload) as { data: Json })
    .filter((e) => e.data.messageId === waId)
    .map((e) => e.data);
}

/** The stored inbound message of one network id, if any. */
export function storedInbound(db: Kysely<Database>, waId: string) {
  return db.selectFrom('inbound_messages').selectAll().where('wa_id', '=', waId).executeTakeFirst();
}
