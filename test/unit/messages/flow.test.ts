/** Operation 8, flow message (docs/contract.md §3, docs/cloud-api.md §1.3 flow). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sendFlow } from '../../../src/domain/messages/send-flow.ts';
import { accepted, refused, x } from './check.ts';

const flow = { text: 'Sign up', flowId: '42', flowCta: 'Start', screen: 'WELCOME' };
const published = { flow: { networkFlowId: '1234567890', mode: 'published' as const } };

describe('send flow', () => {
  test('text 1 to 1024, flowId 1 to 64, flowCta 1 to 20, screen 1 to 64', () => {
    const limits: [string, number][] = [
      ['text', 1024],
      ['flowId', 64],
      ['flowCta', 20],
      ['screen', 64],
    ];
    for (const [field, max] of limits) {
      assert.equal(accepted(sendFlow, { ...flow, [field]: x(max) })[field], x(max));
      assert.equal(
        refused(sendFlow, { ...flow, [field]: x(max + 1) }),
        `\`${field}\` must be at most ${max} characters`,
      );
      assert.equal(refused(sendFlow, { ...flow, [field]: '' }), `\`${field}\` must not be empty`);
      const { [field]: _, ...without } = flow as Record<string, string>;
      assert.equal(refused(sendFlow, without), `\`${field}\` is required`);
    }
    assert.equal(refused(sendFlow, { ...flow, flowId: 42 }), '`flowId` must be a string');
  });

  test('flowCta carries no emoji', () => {
    for (const flowCta of ['Start 🚀', '🇰🇪', '1\u{FE0F}\u{20E3}']) {
      assert.equal(
        refused(sendFlow, { ...flow, flowCta }),
        '`flowCta` must not contain emoji; the network refuses them on the flow button',
      );
    }
    assert.equal(
      accepted(sendFlow, { ...flow, flowCta: 'Jetzt buchen – 2 Min' }).flowCta,
      'Jetzt buchen – 2 Min',
    );
  });

  test('data: any JSON object, passed through; an empty one is left out', () => {
    const data = { service: 'internet', serviceOption: 'fibre', package: { speed: 100, tags: ['a'] } };
    assert.deepEqual(accepted(sendFlow, { ...flow, data }), { ...flow, data });
    assert.deepEqual(accepted(sendFlow, { ...flow, data: {} }), flow);
    for (const bad of [[1], null, 'x', 3]) {
      assert.equal(
        refused(sendFlow, { ...flow, data: bad }),
        '`data` must be an object',
        JSON.stringify(bad),
      );
    }
  });

  test('toCloud: interactive flow in the mode of the resolved flow, navigating to the screen', () => {
    const content = accepted(sendFlow, { ...flow, data: { name: 'Jane' } });
    assert.deepEqual(sendFlow.toCloud(content, { ...published, flowToken: 'tok-1' }), {
      type: 'interactive',
      interactive: {
        type: 'flow',
        body: { text: 'Sign up' },
        action: {
          name: 'flow',
          parameters: {
            flow_message_version: '3',
            flow_token: 'tok-1',
            flow_id: '1234567890',
            flow_cta: 'Start',
            mode: 'published',
            flow_action: 'navigate',
            flow_action_payload: { screen: 'WELCOME', data: { name: 'Jane' } },
          },
        },
      },
    });
    const draft = sendFlow.toCloud(accepted(sendFlow, flow), {
      flow: { networkFlowId: '9', mode: 'draft' },
    }) as any;
    assert.deepEqual(draft.interactive.action.parameters, {
      flow_message_version: '3',
      flow_token: 'unused',
      flow_id: '9',
      flow_cta: 'Start',
      mode: 'draft',
      flow_action: 'navigate',
      flow_action_payload: { screen: 'WELCOME' },
    });
  });

  test('toCloud without the resolved flow is a caller bug and throws', () => {
    assert.throws(() => sendFlow.toCloud(accepted(sendFlow, flow), {}), /resolved flow/);
  });
});
