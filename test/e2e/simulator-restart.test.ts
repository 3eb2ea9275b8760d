/**
 * The embedded default loses nothing on restart: a gateway process with its in-process simulator is
 * stopped in the middle of a journey (a plain stop, and a SIGKILL), started again on the same data, and
 * every next step works as before. Before the stop: a user joined the sandbox, a template was approved,
 * a flow published, an image uploaded, a message sent. After it: a free-form text still finds the
 * user's 24-hour window open, the template and the flow are still known to the network, the upload is
 * still sent by its id, and the user's phone still shows the chat.
 *
 * Run on SQLite (the embedded default) for both signals, and on PostgreSQL for the kill. The gateway is
 * started again in this test process: only the stopped one needs a process of its own (to be sent the
 * signal), and a process start costs about 0.9 s of CPU (test/run.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { call, eventually, startGateway, TEST_SECRET_KEY, type TestGateway } from '../support/gateway.ts';
import { createPostgresSchema, postgresSkipReason } from '../support/postgres.ts';
import { cliInProcess, type GatewayProcess, spawnGateway } from '../support/process.ts';

const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;
const USER = '447911123456';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const SIGN_UP_FLOW = readFileSync(new URL('../../examples/flows/sign-up.json', import.meta.url), 'utf8');

interface PhoneMessage {
  id: string;
  rendered: string;
  status: string;
  content: Record<string, any>;
}

/** What the user's virtual phone received, oldest first. */
async function phone(url: string): Promise<PhoneMessage[]> {
  const r = await fetch(`${url}/simulator/users/${USER}/messages`);
  assert.equal(r.status, 200);
  return ((await r.json()) as { messages: PhoneMessage[] }).messages;
}

async function multipart(url: string, route: string, key: string, form: FormData) {
  const r = await fetch(url + route, { method: 'POST', headers: { apiKey: key }, body: form });
  return { status: r.status, body: (await r.json()) as any };
}

/** Everything of the journey before the stop; returns what the steps after it need. */
async function beforeTheStop(url: string, key: string, joinCode: string) {
  const joined = await fetch(`${url}/simulator/users/${USER}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to: SANDBOX, text: `join ${joinCode}` }),
  });
  assert.equal(joined.status, 202);

  const template = await call(url, 'POST', `/api/v1/template/${SANDBOX}`, {
    key,
    body: {
      name: 'order_ready',
      language: 'en_US',
      category: 'UTILITY',
      component: { body: { text: 'Hi {{1}}, your order is ready for pickup today.', examples: ['Jane'] } },
    },
  });
  assert.equal(template.status, 200, JSON.stringify(template.body));

  const flowForm = new FormData();
  flowForm.set('phoneNumber', SANDBOX);
  flowForm.set('name', 'Sign up');
  flowForm.set('categories', 'SIGN_UP');
  flowForm.set('file', new Blob([SIGN_UP_FLOW], { type: 'application/json' }), 'flow.json');
  const flow = await multipart(url, '/api/v1/msg/manage/flow', key, flowForm);
  assert.equal(flow.status, 200, JSON.stringify(flow.body));
  const flowId = String(flow.body.data.id);
  const published = await call(url, 'POST', `/api/v1/msg/manage/flow/${flowId}/publish`, { key });
  assert.equal(published.status, 200, JSON.stringify(published.body));

  const mediaForm = new FormData();
  mediaForm.set('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
  const upload = await multipart(url, `/api/v1/media/${encodeURIComponent(SANDBOX)}`, key, mediaForm);
  assert.equal(upload.status, 200, JSON.stringify(upload.body));

  const hello = await call(url, 'POST', '/api/v1/msg/message/text', {
    key,
    body: { messageId: 'before-1', from: SANDBOX, to: `+${USER}`, message: 'Before the restart' },
  });
  assert.equal(hello.status, 200, JSON.stringify(hello.body));
  // The review decides on its own clock: the journey goes on once the gateway heard the approval.
  await eventually(async () => {
    const list = await call(url, 'GET', `/api/v1/template/${SANDBOX}?name=order_ready`, { key });
    return list.body.data?.data?.[0]?.status === 'APPROVED';
  });
  return { flowId, mediaId: String(upload.body.data.mediaId) };
}

/** Every next step, on the restarted gateway. */
async function afterTheStop(url: string, key: string, ids: { flowId: string; mediaId: string }) {
  const before = await phone(url);
  assert.ok(
    before.some((m) => m.rendered === 'Before the restart'),
    'the phone still shows the chat from before the restart',
  );

  const send = async (route: string, body: Record<string, unknown>) => {
    const r = await call(url, 'POST', route, { key, body: { from: SANDBOX, to: `+${USER}`, ...body } });
    assert.equal(r.status, 200, `${route}: ${JSON.stringify(r.body)}`);
    return String(r.body.data.waId);
  };
  const text = await send('/api/v1/msg/message/text', { messageId: 'after-1', message: 'After the restart' });
  const template = await send('/api/v1/msg/template', {
    messageId: 'after-2',
    template: { name: 'order_ready', language: 'en_US', components: { body: { placeholders: ['Jane'] } } },
  });
  const flow = await send('/api/v1/msg/interactive/flows', {
    messageId: 'after-3',
    text: 'Please sign up',
    flowId: ids.flowId,
    flowCta: 'Start',
    screen: 'SIGN_UP',
  });
  const image = await send('/api/v1/msg/media', {
    messageId: 'after-4',
    mediaType: 'image',
    mediaId: ids.mediaId,
  });

  // Each reached the phone and none failed there (a forgotten window fails a text with 131047).
  const delivered = await eventually(async () => {
    const messages = await phone(url);
    const byId = new Map(messages.map((m) => [m.id, m]));
    const all = [text, template, flow, image].map((id) => byId.get(id));
    // Settled: on the phone, and past `sent` (delivered or read, or failed, which the next lines refuse).
    return all.every((m) => m !== undefined && m.status !== 'sent') ? all : undefined;
  });
  for (const m of delivered) assert.notEqual(m?.status, 'failed', JSON.stringify(m));
  assert.equal(delivered[1]?.rendered, 'Hi Jane, your order is ready for pickup today.');
  assert.ok(
    delivered[3]?.content.image.id,
    'the image went by the network id the upload got before the restart',
  );

  const status = await call(url, 'GET', '/api/v1/msg/message/after-1', { key });
  assert.notEqual(status.body.data?.status, 'FAILED', JSON.stringify(status.body));
}

async function journey(database: 'sqlite' | 'postgres', signal: NodeJS.Signals): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-restart-'));
  const schema = database === 'postgres' ? await createPostgresSchema() : undefined;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    SEED_DEMO_ACCOUNT: 'false',
    SIMULATOR_TEMPLATE_REVIEW_MS: '100',
    ...(schema ? { DATABASE_URL: schema.url, SECRET_KEY: TEST_SECRET_KEY } : {}),
  };
  let gateway: GatewayProcess | undefined;
  let restarted: TestGateway | undefined;
  try {
    const created = await cliInProcess(['accounts', 'create', '--name', 'Restart Co', '--json'], env);
    assert.equal(created.status, 0, created.stderr);
    const account = JSON.parse(created.stdout) as { apiKey: string; joinCode: string };
    gateway = await spawnGateway(env);
    const ids = await beforeTheStop(gateway.url, account.apiKey, account.joinCode);
    await gateway.stop(signal);
    restarted = await startGateway({ env });
    await afterTheStop(restarted.url, account.apiKey, ids);
  } finally {
    await gateway?.stop();
    await restarted?.close();
    await schema?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('the simulated network across a restart of the gateway', async () => {
  const skipPostgres = await postgresSkipReason();
  test('a plain stop (SIGTERM), on SQLite', () => journey('sqlite', 'SIGTERM'));
  test('a kill -9, on SQLite', () => journey('sqlite', 'SIGKILL'));
  test('a kill -9, on PostgreSQL', { skip: skipPostgres }, () => journey('postgres', 'SIGKILL'));
});
