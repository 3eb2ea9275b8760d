import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signature, verifySignature } from '../../src/events/signing.ts';
import { parseDelayList } from '../../src/lib/delay-list.ts';
import { isPrivateAddress, webhookUrlProblem } from '../../src/lib/url-guard.ts';

test('private, loopback and link-local addresses are recognised', () => {
  for (const ip of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    // Forms that embed an IPv4 address a translator or a tunnel may reach, and site-local.
    '::ffff:0:7f00:1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    'fec0::1',
  ]) {
    assert.equal(isPrivateAddress(ip), true, ip);
  }
  for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2001:4860:4860::8888'])
    assert.equal(isPrivateAddress(ip), false, ip);
});

test('webhook URLs must be https and public unless private URLs are allowed', () => {
  assert.equal(webhookUrlProblem('https://example.com/hook', false), null);
  assert.match(webhookUrlProblem('http://example.com/hook', false)!, /https/);
  assert.match(webhookUrlProblem('https://127.0.0.1/hook', false)!, /private/);
  assert.match(webhookUrlProblem('https://localhost/hook', false)!, /private/);
  assert.match(webhookUrlProblem('https://[::1]/hook', false)!, /private/);
  assert.equal(webhookUrlProblem('http://127.0.0.1:8080/hook', true), null);
  assert.equal(webhookUrlProblem('https://example.com:0/hook', false), 'must not name port 0');
  assert.equal(webhookUrlProblem('https://example.com:8443/hook', false), null);
  // Both refusals name the variable that allows a local receiver.
  assert.match(
    webhookUrlProblem('http://127.0.0.1:8080/hook', false)!,
    /set WEBHOOK_ALLOW_PRIVATE_URLS=true/,
  );
  assert.match(webhookUrlProblem('https://localhost/hook', false)!, /set WEBHOOK_ALLOW_PRIVATE_URLS=true/);
});

test('retry schedules parse and refuse nonsense', () => {
  assert.deepEqual(parseDelayList('5s,5m,30m,2h'), [5000, 300000, 1800000, 7200000]);
  assert.throws(() => parseDelayList('5x'), /not a delay/);
});

test('the Standard Webhooks example signature verifies', () => {
  // The test vector published with the Standard Webhooks specification.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';
  assert.equal(signature(secret, id, 1614265330, body), 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  assert.ok(
    verifySignature(
      secret,
      { id, timestamp: '1614265330', signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' },
      body,
      300,
      1614265330,
    ),
  );
  assert.ok(
    !verifySignature(
      secret,
      { id, timestamp: '1614265330', signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' },
      body,
      300,
      1614265330 + 301,
    ),
  );
});
