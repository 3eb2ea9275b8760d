/**
 * A sandbox template is known to the network by its name plus the account's tag
 * (docs/adr/0008-sandbox-template-names.md); what the network says about it reaches the account with the
 * name the account gave: here, the error a failed status carries into the `message.status` event.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SentMessage } from '../../src/domain/ports/messages.ts';
import { sandboxNetworkName } from '../../src/domain/templates/sandbox-names.ts';
import { statusPayload } from '../../src/events/payloads.ts';

const message: SentMessage = {
  id: 'msg_1',
  accountId: 'acc_01kaqr6hq2mrw0g8c1p5xgmbdt',
  clientMessageId: 'order-1',
  requestHash: 'h',
  kind: 'template',
  fromPhone: '14155550100',
  toPhone: '254712345678',
  content: '{}',
  waId: 'wamid.X',
  status: 'FAILED',
  statusRank: 3,
  error: null,
  createdAt: 0,
  updatedAt: 0,
};

test("a failed status's error names the template as its owner gave it, never by its network name", () => {
  const networkName = sandboxNetworkName(message.accountId, 'order_confirmation');
  const error = JSON.stringify({
    network: { code: 132015, title: 'Template is paused', details: `Template ${networkName} is paused` },
  });
  const payload = statusPayload(message, 'FAILED', Date.UTC(2026, 10, 25), error) as {
    error: { network: { details: string } };
  };
  assert.equal(payload.error.network.details, 'Template order_confirmation is paused');
  assert.ok(!JSON.stringify(payload).includes(networkName));
});
