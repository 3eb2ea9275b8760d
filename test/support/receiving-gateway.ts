/**
 * A gateway whose account has joined users in its sandbox and a local receiver subscribed to
 * `message.received`: what the suites that post the network's webhooks by hand need to see what the
 * gateway published.
 */
import assert from 'node:assert/strict';
import {
  call,
  createAccount,
  joinSandbox,
  type StartOptions,
  startGateway,
  type TestAccount,
  type TestGateway,
} from './gateway.ts';
import { type Receiver, startReceiver } from './receiver.ts';

export interface ReceivingGateway {
  t: TestGateway;
  receiver: Receiver;
  account: TestAccount;
  close(): Promise<void>;
}

export async function startReceivingGateway(
  accountName: string,
  users: readonly string[],
  options: StartOptions = {},
): Promise<ReceivingGateway> {
  const t = await startGateway({
    ...options,
    env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...options.env },
  });
  const receiver = await startReceiver();
  const account = await createAccount(t, accountName);
  const hook = await call(t.url, 'POST', '/api/v1/webhooks', {
    key: account.apiKey,
    body: { url: receiver.url, events: ['message.received'] },
  });
  assert.equal(hook.status, 201);
  for (const user of users) await joinSandbox(t, account, user);
  return {
    t,
    receiver,
    account,
    async close() {
      await t.close();
      await receiver.close();
    },
  };
}
