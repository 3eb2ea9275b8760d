/**
 * `npm start` as a real process: in simulator mode it listens on loopback unless HOST says otherwise, says
 * so on start, and when HOST exposes it, says where the simulator token is without printing or logging it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { eventually } from '../support/eventually.ts';
import { cliInProcess, spawnGateway } from '../support/process.ts';

/** An IPv4 address of this machine that is not loopback, if it has one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

function connectsTo(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const portOf = (url: string) => Number(new URL(url).port);
const hasIpv6Loopback = Object.values(networkInterfaces())
  .flat()
  .some((i) => i?.internal && i.address === '::1');

describe('where the gateway listens in simulator mode', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-listen-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('without HOST: loopback only, and the start says so', async () => {
    const gateway = await spawnGateway({ HOST: '', DATA_DIR: dataDir(), SEED_DEMO_ACCOUNT: 'false' });
    try {
      // Bound to loopback: reachable there, not on the machine's other address (Fastify prints 127.0.0.1
      // for 0.0.0.0 too, so the printed address alone would not tell).
      assert.equal(await connectsTo('127.0.0.1', portOf(gateway.url)), true);
      if (outside) {
        assert.equal(await connectsTo(outside, portOf(gateway.url)), false, `not reachable on ${outside}`);
      }
      assert.match(gateway.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      await eventually(() =>
        gateway.output.some((l) => /The simulator answers only on this machine \(127\.0\.0\.1\)/.test(l)),
      );
    } finally {
      await gateway.stop();
    }
  });

  test('HOST=0.0.0.0: reachable from outside, the simulator private, its token never printed or logged', async () => {
    const dir = dataDir();
    const gateway = await spawnGateway({
      HOST: '0.0.0.0',
      DATA_DIR: dir,
      SEED_DEMO_ACCOUNT: 'false',
      LOG_LEVEL: 'info',
    });
    try {
      // The control of the test above: the same check sees an exposed gateway.
      if (outside) assert.equal(await connectsTo(outside, portOf(gateway.url)), true);
      await eventually(() =>
        gateway.output.some((l) => /The simulator is private: .*npm run cli -- simulator token/.test(l)),
      );
      const cli = await cliInProcess(['simulator', 'token'], { DATA_DIR: dir, HOST: '0.0.0.0' });
      assert.equal(cli.status, 0, cli.stderr);
      const token = cli.stdout.trim();
      assert.match(token, /^[A-Za-z0-9_-]{43}$/);

      const closed = await fetch(`${gateway.url}/simulator/users/254712399002/messages`);
      assert.equal(closed.status, 401);
      const open = await fetch(`${gateway.url}/simulator/users/254712399002/messages`, {
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(open.status, 200, 'the token the CLI prints is the one the server takes');
      const page = await fetch(`${gateway.url}/simulator/phone?token=${token}`, { redirect: 'manual' });
      assert.equal(page.status, 303);

      // The request with the token in its query string was logged, with the token masked.
      await eventually(() => gateway.output.some((l) => l.includes('/simulator/phone?token=[Redacted]')));
      assert.deepEqual(
        gateway.output.filter((l) => l.includes(token)),
        [],
      );
    } finally {
      await gateway.stop();
    }
  });

  test('HOST=::1: the gateway reaches its own simulator there (not at 127.0.0.1)', {
    skip: hasIpv6Loopback ? false : 'this machine has no IPv6 loopback',
  }, async () => {
    const dir = dataDir();
    const created = await cliInProcess(['accounts', 'create', '--name', 'Six Co', '--json'], {
      DATA_DIR: dir,
    });
    assert.equal(created.status, 0, created.stderr);
    const account = JSON.parse(created.stdout) as { apiKey: string; joinCode: string };
    const gateway = await spawnGateway({ HOST: '::1', DATA_DIR: dir, SEED_DEMO_ACCOUNT: 'false' });
    try {
      assert.match(gateway.url, /^http:\/\/\[::1\]:\d+$/);
      const user = '254712399501';
      const joined = await fetch(`${gateway.url}/simulator/users/${user}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+14155550100', text: `join ${account.joinCode}` }),
      });
      assert.equal(joined.status, 202);
      // The join arrives through the simulator's webhook to this process, and its answer goes out through
      // the Graph API of this process: both calls to itself.
      await eventually(async () => {
        const phone = (await (await fetch(`${gateway.url}/simulator/users/${user}/messages`)).json()) as {
          messages: { rendered: string }[];
        };
        return phone.messages.some((m) => /connected to the Six Co sandbox/.test(m.rendered));
      });
      const sent = await fetch(`${gateway.url}/api/v1/msg/message/text`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', apiKey: account.apiKey },
        body: JSON.stringify({
          messageId: 'v6-1',
          from: '+14155550100',
          to: `+${user}`,
          message: 'over ::1',
        }),
      });
      assert.equal(sent.status, 200, await sent.text());
    } finally {
      await gateway.stop();
    }
  });
});
