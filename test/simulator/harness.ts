/**
 * A simulator on a real port (Fastify, 127.0.0.1, port 0) and a real node:http webhook receiver, for the
 * simulator suites. Signatures are recomputed here from the raw bytes, independently of the simulator.
 */
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.ts';
import type { SimulatorStateStore, StateRecord } from '../../src/simulator/state/store-port.ts';
import { type Received, type Receiver, startReceiver } from '../support/receiver.ts';

export const TOKEN = 'test-token';
export const SECRET = 'test-app-secret';
export const BUSINESS = '14155550100';
export const USER = '254712345678';
export const VERSION = 'v23.0';

export interface Harness {
  /** Graph base URL, e.g. http://127.0.0.1:1234/simulator */
  base: string;
  app: FastifyInstance;
  simulator: Simulator;
  receiver: Receiver;
  close(): Promise<void>;
}

export async function startHarness(overrides: Partial<SimulatorOptions> = {}): Promise<Harness> {
  const receiver = await startReceiver();
  const simulator = createSimulator({
    accessToken: TOKEN,
    appSecret: SECRET,
    webhookUrl: () => receiver.url,
    statusDelayMs: 20,
    phoneDefaultBusiness: BUSINESS,
    ...overrides,
  });
  const app = Fastify();
  await app.register(simulator.plugin, { prefix: '/simulator' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base: `${url}/simulator`,
    app,
    simulator,
    receiver,
    async close() {
      await simulator.close();
      await app.close();
      await receiver.close();
    },
  };
}

export interface JsonResponse {
  status: number;
  body: any;
}

export async function request(
  url: string,
  options: { method?: string; body?: unknown; token?: string | null; headers?: Record<string, string> } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== null && options.token !== undefined)
    headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(url, {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    signal: AbortSignal.timeout(5000),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Sends a Graph message body (envelope keys added) as the business. */
export function graphSend(
  h: Harness,
  message: Record<string, unknown>,
  to = USER,
  token: string | null = TOKEN,
) {
  return request(`${h.base}/${VERSION}/${BUSINESS}/messages`, {
    body: { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...message },
    token,
  });
}

export function userSays(h: Harness, body: Record<string, unknown>, user = USER) {
  return request(`${h.base}/users/${user}/messages`, { body: { to: BUSINESS, ...body } });
}

import { eventually } from '../support/eventually.ts';

export { eventually };

/** Opens the 24-hour window: the user writes first, and the test waits for that webhook. */
export async function openWindow(h: Harness, user = USER): Promise<void> {
  const before = h.receiver.received.length;
  const r = await userSays(h, { text: 'hi' }, user);
  assert.equal(r.status, 202);
  await eventually(() => h.receiver.received.length > before);
}

export function assertSigned(hook: Received): void {
  const header = hook.headers['x-hub-signature-256'];
  assert.equal(typeof header, 'string');
  const expected = createHmac('sha256', SECRET).update(Buffer.from(hook.body, 'utf8')).digest();
  const given = Buffer.from(String(header).slice('sha256='.length), 'hex');
  assert.ok(String(header).startsWith('sha256='));
  assert.ok(given.length === expected.length && timingSafeEqual(given, expected), 'signature must match');
  assert.match(String(hook.headers['content-type']), /^application\/json/);
}

/** `statuses[]` items received so far for one message id, in arrival order. */
export function statusesOf(h: Harness, id: string): any[] {
  return h.receiver.received
    .flatMap((hook) => hook.json.entry.flatMap((e: any) => e.changes.map((c: any) => c.value)))
    .flatMap((value: any) => value.statuses ?? [])
    .filter((s: any) => s.id === id);
}

/** The statuses of message `id`, once all three (sent, delivered, read) arrived, in the order they came. */
export function threeStatusesOf(h: Harness, id: string): Promise<any[]> {
  return eventually(() => {
    const s = statusesOf(h, id);
    return s.length === 3 ? s : undefined;
  });
}

/** The `value` of the signed inbound webhook that carries message `id`, once it arrived. */
export async function inboundFor(h: Harness, id: string) {
  const hook = await eventually(() => inboundHooks(h).find((x) => x.body.includes(id)));
  assertSigned(hook);
  return hook.json.entry[0].changes[0].value;
}

/** Inbound `messages` webhooks received so far (the whole hook, for shape and signature checks). */
export function inboundHooks(h: Harness): Received[] {
  return h.receiver.received.filter((hook) => hook.json.entry[0].changes[0].value.messages);
}

/** A state store in memory: what one simulator wrote (`snapshot`) is what the next one starts from. */
export function memoryStore(records = new Map<string, StateRecord>()) {
  const store: SimulatorStateStore = {
    async load() {
      return [...records.values()];
    },
    async write(changes) {
      for (const c of changes) {
        if (c.value === null) records.delete(`${c.kind}/${c.key}`);
        else records.set(`${c.kind}/${c.key}`, { kind: c.kind, key: c.key, value: c.value });
      }
    },
  };
  return { store, snapshot: () => new Map(records) };
}
