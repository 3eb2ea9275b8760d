/**
 * What the phone page reads, over real HTTP: the page and its assets, both directions of a chat, the
 * list of chats, a phone's own media (and not another phone's), and clear 4xx answers for bad input.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  openWindow,
  request,
  startHarness,
  USER,
  userSays,
} from './harness.ts';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('phone page routes', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => {
    await h.close();
  });

  test('the page, its script and its stylesheet, with a CSP that allows only same-origin code', async () => {
    const page = await fetch(`${h.base}/phone`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await page.text();
    assert.match(html, /<script type="module" src="\/simulator\/phone\/app\.js"><\/script>/);
    assert.match(html, /<label for="user-number">Your number<\/label>/);
    assert.match(html, /data-default-business="\+14155550100"/);
    assert.match(html, /<ol id="messages"[^>]*aria-live="polite"/);
    // The toggle of the user's marketing setting (marketing-stops.ts) is a labelled toggle button.
    assert.match(
      html,
      /<button type="button" id="stop-promotions"[^>]*aria-pressed="false">Stop promotions<span class="visually-hidden"> from this business<\/span><\/button>/,
    );
    const script = await fetch(`${h.base}/phone/app.js`);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.match(await script.text(), /new EventSource/);
    const css = await fetch(`${h.base}/phone/phone.css`);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
    assert.match(await css.text(), /:focus-visible/);
  });

  test('every module the script imports is served beside it, as JavaScript', async () => {
    // Followed from app.js itself, so a module added to the page without a route fails here, not in a browser.
    const pending = ['app.js'];
    const served = new Set<string>();
    while (pending.length > 0) {
      const name = pending.pop()!;
      if (served.has(name)) continue;
      const response = await fetch(`${h.base}/phone/${name}`);
      assert.equal(response.status, 200, `${name} is served`);
      assert.match(response.headers.get('content-type') ?? '', /^text\/javascript/, name);
      served.add(name);
      for (const match of (await response.text()).matchAll(/^import .* from '\.\/([a-z-]+\.js)';$/gm))
        pending.push(match[1]!);
    }
    assert.deepEqual([...served].sort(), [
      'app.js',
      'dom.js',
      'flow-sheet.js',
      'message-view.js',
      'promotions-toggle.js',
      'reactions.js',
      'rich-text.js',
      'template-view.js',
    ]);
  });

  test('the chat holds both directions in order; chats lists the business', async () => {
    await openWindow(h);
    const sent = await graphSend(h, { type: 'text', text: { body: 'Welcome' } });
    const chat = await request(`${h.base}/users/${USER}/chat?with=%2B${BUSINESS}`);
    assert.equal(chat.status, 200);
    assert.equal(chat.body.business, BUSINESS);
    assert.deepEqual(
      chat.body.messages.map((m: any) => [m.direction, m.rendered]),
      [
        ['out', 'hi'],
        ['in', 'Welcome'],
      ],
    );
    assert.equal(chat.body.messages[1].id, sent.body.messages[0].id);

    const chats = await request(`${h.base}/users/${USER}/chats`);
    assert.deepEqual(
      chats.body.chats.map((c: any) => [c.business, c.last]),
      [[BUSINESS, 'Welcome']],
    );
    // Another business's chat with the same phone is empty.
    const other = await request(`${h.base}/users/${USER}/chat?with=14155550199`);
    assert.deepEqual(other.body.messages, []);
  });

  test("a phone reads its own media; another phone's media is a 404", async () => {
    const said = await userSays(h, {
      media: { type: 'image', mimeType: 'image/png', dataBase64: PNG, caption: 'receipt' },
    });
    assert.equal(said.status, 202);
    const chat = await eventually(async () => {
      const r = await request(`${h.base}/users/${USER}/chat?with=${BUSINESS}`);
      return r.body.messages.find((m: any) => m.id === said.body.id);
    });
    assert.equal(chat.rendered, '[image]\nreceipt');
    const id = chat.content.image.id;
    const mine = await fetch(`${h.base}/users/${USER}/media/${id}`);
    assert.equal(mine.status, 200);
    assert.equal(mine.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await mine.arrayBuffer()), Buffer.from(PNG, 'base64'));
    const theirs = await request(`${h.base}/users/254712000002/media/${id}`);
    assert.equal(theirs.status, 404);
    assert.match(theirs.body.error.message, /this phone has no media/);
  });

  test('a file sent as a script or a page is a download, never code on this origin', async () => {
    for (const [mimeType, served, disposition] of [
      ['text/javascript', 'application/octet-stream', 'attachment'],
      ['text/html', 'text/html', 'attachment'],
      ['image/png', 'image/png', 'inline'],
    ] as const) {
      const said = await userSays(h, {
        media: {
          type: 'document',
          mimeType,
          dataBase64: Buffer.from('alert(document.domain)').toString('base64'),
          filename: 'x.js',
        },
      });
      assert.equal(said.status, 202, JSON.stringify(said.body));
      const chat = await eventually(async () => {
        const r = await request(`${h.base}/users/${USER}/chat?with=${BUSINESS}`);
        return r.body.messages.find((m: any) => m.id === said.body.id);
      });
      const file = await fetch(`${h.base}/users/${USER}/media/${chat.content.document.id}`);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), served, mimeType);
      assert.equal(file.headers.get('content-disposition'), disposition, mimeType);
      assert.equal(file.headers.get('x-content-type-options'), 'nosniff');
      assert.match(String(file.headers.get('content-security-policy')), /sandbox/);
      await file.arrayBuffer();
    }
  });

  test('bad input is a 4xx naming the field', async () => {
    const badPhone = await request(`${h.base}/users/12/chat?with=${BUSINESS}`);
    assert.equal(badPhone.status, 400);
    assert.match(badPhone.body.error.message, /`phone` in the path/);
    const noWith = await request(`${h.base}/users/${USER}/chat`);
    assert.equal(noWith.status, 400);
    assert.match(noWith.body.error.message, /`with` must be the business number/);
    const badWith = await request(`${h.base}/users/${USER}/chat?with=abc`);
    assert.equal(badWith.status, 400);
    const noFlow = await request(`${h.base}/users/${USER}/flows/wamid.nope`);
    assert.equal(noFlow.status, 404);
    assert.match(noFlow.body.error.message, /`messageId`: this phone received no flow message/);
    const badChats = await request(`${h.base}/users/x/chats`);
    assert.equal(badChats.status, 400);
  });
});
