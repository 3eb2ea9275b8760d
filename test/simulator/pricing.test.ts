/**
 * What the simulated network's statuses say a message costs (src/simulator/webhook-envelopes.ts,
 * docs/cloud-api.md §3.5): a template is charged by its category, except a utility template inside the
 * customer-service window, which is free like a free-form (service) message there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { graphSend, type Harness, openWindow, startHarness, threeStatusesOf } from './harness.ts';
import { createReviewed } from './template-helpers.ts';

const template = (name: string, category: string) => ({
  name,
  language: 'en',
  category,
  components: [{ type: 'BODY', text: `The ${name} of {{1}}.`, example: { body_text: [['Jane']] } }],
});

const templateSend = (name: string) => ({
  type: 'template',
  template: {
    name,
    language: { code: 'en' },
    components: [{ type: 'body', parameters: [{ type: 'text', text: 'Jane' }] }],
  },
});

/** The `pricing` of each of the message's three statuses, and its conversation's origin when it has one. */
async function pricingOf(h: Harness, sent: Promise<{ status: number; body: any }>) {
  const r = await sent;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const statuses = await threeStatusesOf(h, r.body.messages[0].id);
  const [first] = statuses;
  for (const s of statuses) assert.deepEqual(s.pricing, first.pricing, 'the same pricing on every status');
  return { pricing: first.pricing, origin: first.conversation?.origin?.type };
}

describe('pricing on the statuses of the simulated network', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
    await createReviewed(h, template('spring_sale', 'MARKETING'));
    await createReviewed(h, template('order_note', 'UTILITY'));
  });
  after(() => h.close());

  test('outside the window, a template is charged by its category', async () => {
    for (const [name, category] of [
      ['spring_sale', 'marketing'],
      ['order_note', 'utility'],
    ] as const) {
      assert.deepEqual(await pricingOf(h, graphSend(h, templateSend(name))), {
        pricing: { billable: true, pricing_model: 'PMP', category, type: 'regular' },
        origin: undefined,
      });
    }
  });

  test('inside the window, a service message and a utility template are free; a marketing one is not', async () => {
    await openWindow(h);
    const free = { billable: false, pricing_model: 'PMP', type: 'free_customer_service' };
    assert.deepEqual(await pricingOf(h, graphSend(h, { type: 'text', text: { body: 'Thanks!' } })), {
      pricing: { ...free, category: 'service' },
      origin: 'service',
    });
    assert.deepEqual(await pricingOf(h, graphSend(h, templateSend('order_note'))), {
      pricing: { ...free, category: 'utility' },
      origin: 'utility',
    });
    assert.deepEqual(await pricingOf(h, graphSend(h, templateSend('spring_sale'))), {
      pricing: { billable: true, pricing_model: 'PMP', category: 'marketing', type: 'regular' },
      origin: 'marketing',
    });
  });
});
