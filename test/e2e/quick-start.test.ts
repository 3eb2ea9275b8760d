/**
 * The README's five-minute quick start, run verbatim: the gateway started as `npm start` starts it (the
 * demo account printed on first start), then every `sh` block of the quick start executed in order by
 * bash with the printed key and code, right after one another, with no waiting in between. Step 3
 * right after step 2 must work: the simulator answers a user's message once the gateway took it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type GatewayProcess, spawnGateway } from '../support/process.ts';

const README = readFileSync(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

/** The `sh` blocks of the quick start, in order. */
function quickStartBlocks(): string[] {
  const start = README.indexOf('## Five-minute quick start');
  const section = README.slice(start, README.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/^ {3}/gm, ''));
}

describe('the README quick start, verbatim', () => {
  let dataDir: string;
  let gateway: GatewayProcess;
  let key: string;
  let code: string;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-quick-start-'));
    gateway = await spawnGateway({ DATA_DIR: dataDir, SEED_DEMO_ACCOUNT: 'true', LOG_LEVEL: 'info' });
    const printed = gateway.output.join('\n');
    key = /apiKey\s+(sb_live_\S+)/.exec(printed)?.[1] ?? '';
    code = /joinCode\s+(\S+)/.exec(printed)?.[1] ?? '';
  });
  after(async () => {
    await gateway?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the first start prints the key and the join code the README names', () => {
    assert.match(key, /^sb_live_[0-9A-Za-z]{32}$/);
    assert.match(code, /^[a-z]+-[a-z]+-[a-z]+-\d{6}$/);
  });

  test('steps 2 to 4 run as written, one right after the other', () => {
    const blocks = quickStartBlocks();
    assert.equal(blocks.length, 3, 'steps 2, 3 and 4');
    const port = new URL(gateway.url).port;
    const run = (block: string) =>
      execFileSync('bash', ['-e', '-c', block.replaceAll('localhost:3000', `127.0.0.1:${port}`)], {
        env: { ...process.env, KEY: key, CODE: code },
        encoding: 'utf8',
      });
    const joined = JSON.parse(run(blocks[0]!));
    assert.match(joined.id, /^wamid\./);
    const sent = JSON.parse(run(blocks[1]!));
    assert.equal(sent.status, 'success', JSON.stringify(sent));
    assert.equal(sent.data.messageId, 'hello-1');
    assert.equal(sent.data.status, 'SENT');
    // Step 4 is two commands, one per line; curl prints each answer without a line break after it.
    const [phoneCommand, statusCommand] = blocks[2]!.trim().split('\n');
    const phone = JSON.parse(run(phoneCommand!));
    assert.ok(phone.messages.some((m: { rendered: string }) => m.rendered === 'Hello from Switchboard'));
    const lookup = JSON.parse(run(statusCommand!));
    assert.equal(lookup.data.messageId, 'hello-1');
    assert.match(lookup.data.status, /^(SENT|DELIVERED|READ)$/);
  });
});
