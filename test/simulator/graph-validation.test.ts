/**
 * Send-body limits of reference §1.3/§1.5, each at its edge: accepted exactly at the limit, refused just
 * past it with HTTP 400, the expected code, and `error_data.details` naming the field.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { graphSend, type Harness, openWindow, startHarness } from './harness.ts';
import { cases, flow } from './send-limit-cases.ts';

describe('simulated Graph API: send-body limits', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await openWindow(h);
  });
  after(() => h.close());

  for (const c of cases) {
    test(c.name, async () => {
      const accepted = await graphSend(h, JSON.parse(JSON.stringify(c.ok)));
      assert.equal(accepted.status, 200, `at the limit: ${JSON.stringify(accepted.body)}`);
      const refused = await graphSend(h, JSON.parse(JSON.stringify(c.bad)));
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
      { ...flow({ flow_action: 'data_exchange', flow_action_payload: undefined }).interactive },
    ]) {
      const r = await graphSend(h, { type: 'interactive', interactive });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  });
});
