/**
 * Helpers of the template suites: create a template on the simulated WABA, have its review decided now by
 * the simulator's control (no clock to race), read what a message shows on the virtual phone, and check a
 * refusal's Graph error.
 */
import assert from 'node:assert/strict';
import { BUSINESS, eventually, type Harness, request, TOKEN, USER, VERSION } from './harness.ts';

export function createTemplate(h: Harness, body: unknown, waba = BUSINESS) {
  return request(`${h.base}/${VERSION}/${waba}/message_templates`, { body, token: TOKEN });
}

/** Creates a template and has its review decided now; answers its id and the decided template. */
export async function createReviewed(h: Harness, body: unknown) {
  const created = await createTemplate(h, body);
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const decided = await request(`${h.base}/templates/${created.body.id}/review`, {
    method: 'POST',
    body: {},
  });
  assert.equal(decided.status, 200, JSON.stringify(decided.body));
  return { id: created.body.id as string, template: decided.body };
}

/** A create refused as Meta does: HTTP 400, code 100, the field named in the details. */
export async function assertCreateRefused(h: Harness, body: unknown, details: RegExp, subcode?: number) {
  const r = await createTemplate(h, body);
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.error.code, 100);
  assert.equal(r.body.error.error_subcode, subcode);
  // Meta words a template refusal for people only (`error_user_msg`), with no `error_data`.
  assert.match(r.body.error.error_user_msg, details);
  assert.equal(r.body.error.error_data, undefined);
}

/** A send refused with Graph error `code`, its details matching. */
export async function assertSendRefused(
  response: Promise<{ status: number; body: any }>,
  code: number,
  details: RegExp,
) {
  const r = await response;
  assert.equal(r.status >= 400, true, JSON.stringify(r.body));
  assert.equal(r.body?.error?.code, code, JSON.stringify(r.body));
  assert.match(r.body.error.error_data.details, details);
}

/** The message as the phone's message list answers it (rendered text, filled-in template). */
export async function onPhone(h: Harness, messageId: string, user = USER) {
  const inbox = await request(`${h.base}/users/${user}/messages?from=${BUSINESS}`);
  const message = inbox.body.messages.find((m: { id: string }) => m.id === messageId);
  assert.ok(message, 'the message must be on the phone');
  return message;
}

/** The inbound `messages[]` item the user's message `id` became, once its webhook arrived. */
export async function inboundMessage(h: Harness, id: string) {
  const hook = await eventually(() => h.receiver.received.find((x) => x.body.includes(`"id":"${id}"`)));
  return hook.json.entry[0].changes[0].value.messages[0];
}
