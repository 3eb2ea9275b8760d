/**
 * Send-body limits of docs/cloud-api.md §1.3/§1.5, each at its edge: accepted exactly at the limit, refused just
 * past it with HTTP 400, the expected code, and `error_data.details` naming the field.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import {
  BUSINESS,
  graphSend,
  type Harness,
  openWindow,
  request,
  startHarness,
  TOKEN,
  VERSION,
} from './harness.ts';
import { cases, FLOW_ID, flow } from './send-limit-cases.ts';

const SIGN_UP_FLOW = readFileSync(new URL('../../examples/flows/sign-up.json', import.meta.url), 'utf8');

/** Flow messages must name a published flow of the sender's WABA: the example flow, published as `signup`. */
async function publishSignUpFlow(h: Harness): Promise<string> {
  const created = await request(`${h.base}/${VERSION}/${BUSINESS}/flows`, {
    body: { name: 'signup', categories: ['SIGN_UP'], flow_json: SIGN_UP_FLOW },
    token: TOKEN,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  assert.deepEqual(created.body.validation_errors, []);
  const published = await request(`${h.base}/${VERSION}/${created.body.id}/publish`, {
    method: 'POST',
    token: TOKEN,
  });
  assert.equal(published.status, 200, JSON.stringify(published.body));
  return created.body.id;
}

describe('simulated Graph API: send-body limits', () => {
  let h: Harness;
  let withFlowId: (body: unknown) => Record<string, unknown>;
  before(async () => {
    // Every case sends to one user within moments: far past Meta's pair limit, which is not under test.
    h = await startHarness({ pairBurst: 0 });
    await openWindow(h);
    const flowId = await publishSignUpFlow(h);
    withFlowId = (body) => JSON.parse(JSON.stringify(body).replaceAll(FLOW_ID, flowId));
  });
  after(() => h.close());

  for (const c of cases) {
    test(c.name, async () => {
      const accepted = await graphSend(h, withFlowId(c.ok));
      assert.equal(accepted.status, 200, `at the limit: ${JSON.stringify(accepted.body)}`);
      const refused = await graphSend(h, withFlowId(c.bad));
      assert.equal(refused.status, 400, `past the limit: ${JSON.stringify(refused.body)}`);
      assert.equal(refused.body.error.code, c.code, JSON.stringify(refused.body));
      assert.match(refused.body.error.message, new RegExp(`^\\(#${c.code}\\) `));
      assert.match(refused.body.error.error_data.details, c.field);
      assert.equal(typeof refused.body.error.fbtrace_id, 'string');
    });
  }

  test('a reaction needs a single emoji; an empty one removes it', async () => {
    const react = (emoji: string) =>
      graphSend(h, { type: 'reaction', reaction: { message_id: 'wamid.X', emoji } });
    assert.equal((await react('👍')).status, 200);
    assert.equal((await react('👍🏽')).status, 200);
    assert.equal((await react('')).status, 200);
    const bad = await react('👍👍');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.error_data.details, /reaction\.emoji/);
  });

  test('every interactive kind the gateway sends is accepted', async () => {
    for (const interactive of [
      {
        type: 'location_request_message',
        body: { text: 'Where are you?' },
        action: { name: 'send_location' },
      },
      {
        type: 'cta_url',
        body: { text: 'Open it' },
        action: { name: 'cta_url', parameters: { display_text: 'Open', url: 'https://example.com' } },
      },
      withFlowId(flow({ flow_action: 'data_exchange', flow_action_payload: undefined }).interactive),
    ]) {
      const r = await graphSend(h, { type: 'interactive', interactive });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  });
});
