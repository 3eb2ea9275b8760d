/**
 * Template header uploads stream to disk: the file is on disk while the client is still sending, a file
 * past its kind's limit is refused with a 413 naming `file` and the limit and leaves nothing behind, and
 * so does an upload the client abandons. Each account keeps header files up to its storage quota
 * (MEDIA_QUOTA_BYTES_PER_ACCOUNT), enforced while writing and against uploads running side by side.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  createAccount,
  eventually,
  startGateway,
  type TestAccount,
  type TestGateway,
} from '../support/gateway.ts';

const MB = 1024 * 1024;
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const BOUNDARY = 'switchboard-upload-boundary';
const QUOTA = 3 * MB;

/** Sizes of the header files under DATA_DIR (complete or being written). */
function filesOnDisk(t: TestGateway): number[] {
  const root = path.join(t.dataDir, 'template-media');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => statSync(path.join(entry.parentPath, entry.name)).size);
}

/**
 * A multipart body with one PNG part of `size` bytes, produced as the request reads it: nothing of the
 * file exists in memory whole on the client side either. `pauseAfter` holds the body back at that many
 * file bytes until `resume` is called.
 */
function pngUpload(size: number, options: { field?: string; pauseAfter?: number } = {}) {
  const field = options.field ?? 'file';
  let resume = () => {};
  const resumed = new Promise<void>((resolve) => {
    resume = resolve;
  });
  const chunk = Buffer.alloc(256 * 1024, 7);
  async function* parts(): AsyncGenerator<Uint8Array> {
    yield Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    );
    yield PNG_HEAD;
    let sent = PNG_HEAD.length;
    while (sent < size) {
      if (options.pauseAfter !== undefined && sent >= options.pauseAfter) {
        await resumed;
        options.pauseAfter = undefined;
      }
      const next = chunk.subarray(0, Math.min(chunk.length, size - sent));
      sent += next.length;
      yield next;
    }
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  }
  const iterator = parts();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return { body, resume };
}

async function upload(
  t: TestGateway,
  account: TestAccount,
  size: number,
  options: { field?: string; pauseAfter?: number; signal?: AbortSignal } = {},
) {
  const { body, resume } = pngUpload(size, options);
  const response = fetch(`${t.url}/api/v1/template/upload/file`, {
    method: 'POST',
    headers: { apiKey: account.apiKey, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    duplex: 'half',
    signal: options.signal,
  } as RequestInit);
  return {
    resume,
    answer: response.then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
  };
}

describe('template media uploads', () => {
  let t: TestGateway;
  let a: TestAccount;
  let b: TestAccount;
  let c: TestAccount;

  before(async () => {
    t = await startGateway({ env: { MEDIA_QUOTA_BYTES_PER_ACCOUNT: String(QUOTA) } });
    a = await createAccount(t, 'Upload A');
    b = await createAccount(t, 'Upload B');
    c = await createAccount(t, 'Upload C');
  });
  after(async () => t.close());

  test('a file twice the limit is written while it arrives, refused with 413, and leaves no file', async (ctx) => {
    const before = process.memoryUsage();
    const sending = await upload(t, a, 10 * MB + 2, { pauseAfter: 2 * MB });
    // The client holds the rest back: a gateway that buffered the upload would have nothing on disk yet.
    const partial = await eventually(() => filesOnDisk(t).find((size) => size > 0));
    ctx.diagnostic(`${partial} bytes on disk while the client held the rest back`);
    sending.resume();
    const { status, body } = await sending.answer;
    assert.equal(status, 413, JSON.stringify(body));
    assert.match(body.message, /`file`: a image\/png header may be at most 5 MB/);
    assert.deepEqual(filesOnDisk(t), [], 'the partial file is removed');
    const grown = process.memoryUsage().rss - before.rss;
    ctx.diagnostic(`resident memory grew by ${Math.round(grown / MB)} MB for a 10 MB upload`);
  });

  test('an upload the client abandons leaves no file', async () => {
    const abort = new AbortController();
    const sending = await upload(t, a, 4 * MB, { pauseAfter: MB, signal: abort.signal });
    await eventually(() => filesOnDisk(t).some((size) => size > 0));
    abort.abort();
    await sending.answer.catch(() => undefined);
    await eventually(() => filesOnDisk(t).length === 0);
  });

  test('the file must be in a part named `file`', async () => {
    const { answer } = await upload(t, a, 1000, { field: 'photo' });
    const { status, body } = await answer;
    assert.equal(status, 400);
    assert.match(body.message, /a file part named `file`/);
  });

  test('each account keeps files up to its quota; past it, a 413 that names the quota', async () => {
    const first = await (await upload(t, b, 2 * MB)).answer;
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const second = await (await upload(t, b, 2 * MB)).answer;
    assert.equal(second.status, 413, JSON.stringify(second.body));
    assert.match(
      second.body.message,
      /media storage quota of 3 MB \(3145728 bytes\); 2 MB \(2097152 bytes\) are in use/,
    );
    assert.equal(filesOnDisk(t).length, 1, 'the refused file is removed');
    // Another account's quota is its own.
    const other = await (await upload(t, c, 2 * MB)).answer;
    assert.equal(other.status, 200, JSON.stringify(other.body));
    // What still fits is taken; once full, the next upload is refused before it is read.
    const rest = await (await upload(t, b, MB)).answer;
    assert.equal(rest.status, 200, JSON.stringify(rest.body));
    const full = await (await upload(t, b, 100)).answer;
    assert.equal(full.status, 413);
    assert.match(full.body.message, /media storage quota of 3 MB/);
  });

  test('uploads side by side never take an account past its quota together', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, async () => (await upload(t, a, MB)).answer));
    const accepted = answers.filter((x) => x.status === 200).length;
    assert.ok(accepted <= 3, `${accepted} of 5 one-megabyte uploads accepted under a 3 MB quota`);
    for (const x of answers) assert.ok(x.status === 200 || x.status === 413, JSON.stringify(x));
    const kept = await t.gateway.store.db
      .selectFrom('template_media')
      .select('size')
      .where('account_id', '=', a.accountId)
      .execute();
    assert.equal(kept.length, accepted);
    assert.ok(kept.reduce((sum, row) => sum + row.size, 0) <= QUOTA);
  });
});
