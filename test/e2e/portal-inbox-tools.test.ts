/**
 * The inbox's team tools through the portal over real HTTP (docs/inbox.md, "Saved replies" and "Team
 * notes"). Saved replies: added with refusals next to their field, offered in a conversation and put in its
 * message box, sent from there to the customer's phone, removed. Notes: added to a conversation, named by
 * their author, shown to the team and never sent to the customer. Another account sees and changes neither,
 * and what members wrote is shown as text, never as markup. A conversation with a customer who opted out
 * of the number's marketing says so, and how.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import {
  addSimulatedNumber,
  eventually,
  joinSandbox,
  portalAccount,
  receivedBy,
  startGateway,
  type TestGateway,
  userSays,
} from '../support/gateway.ts';
import { PortalClient } from '../support/portal-client.ts';

const PASSWORD = 'a long enough password';
const USER = '447911200451';
const HOURS = 'We open at 9 and close at 18, <b>Monday</b> to Saturday.';

describe('the inbox team tools', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway();
  });
  after(() => t.close());

  test('added, offered in a conversation, put in the message box, sent, removed', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('owner@replies.example', PASSWORD, 'Replies Shop');
    const account = await portalAccount(t, 'owner@replies.example');
    await joinSandbox(t, account, USER);
    const conversation = await t.gateway.store.db
      .selectFrom('inbox_conversations')
      .select('id')
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();

    const empty = await owner.get('/app/inbox/replies');
    assert.equal(empty.status, 200);
    assert.match(empty.html, /No saved replies yet/);
    const added = await owner.post('/app/inbox/replies', { shortcut: ' Hours ', text: HOURS });
    assert.equal(added.status, 303);
    const listed = await owner.get(added.location!);
    assert.match(listed.html, /<h3>hours<\/h3>/, 'its shortcut, in lower case');
    assert.match(listed.html, /We open at 9 and close at 18, &lt;b&gt;Monday&lt;\/b&gt;/, 'text, not markup');

    const taken = await owner.post('/app/inbox/replies', { shortcut: 'hours', text: 'Other hours' });
    assert.equal(taken.status, 409);
    assert.match(
      taken.html,
      /class="field-error" id="f-shortcut-error">`shortcut`: the account has a saved reply named hours/,
    );
    assert.match(taken.html, />Other hours<\/textarea>/, 'what was written is kept');
    const badName = await owner.post('/app/inbox/replies', { shortcut: 'two words', text: 'x' });
    assert.equal(badName.status, 400);
    assert.match(badName.html, /id="f-shortcut-error">`shortcut` must be 1 to 32 letters, digits, - or _/);
    const noText = await owner.post('/app/inbox/replies', { shortcut: 'blank', text: '   ' });
    assert.equal(noText.status, 400);
    assert.match(noText.html, /id="f-text-error">`text` must be 1 to 4096 characters/);

    const saved = await t.gateway.store.db
      .selectFrom('saved_replies')
      .select('id')
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    const page = await owner.get(`/app/inbox/${conversation.id}`);
    assert.match(page.html, new RegExp(`<option value="${saved.id}">hours</option>`));
    const chosen = await owner.get(`/app/inbox/${conversation.id}?saved=${saved.id}`);
    assert.match(
      chosen.html,
      /<textarea id="f-message" name="message" rows="3">We open at 9 and close at 18, &lt;b&gt;Monday&lt;\/b&gt; to Saturday\.<\/textarea>/,
    );
    const sent = await owner.post(`/app/inbox/${conversation.id}/reply`, {
      kind: 'text',
      message: HOURS,
      messageId: 'saved-reply-1',
    });
    assert.equal(sent.status, 303);
    await eventually(async () =>
      (await receivedBy(t, USER)).some(
        (m: { from: string; rendered: string }) => m.from === DEFAULT_SANDBOX_NUMBER && m.rendered === HOURS,
      ),
    );

    // A text area's line breaks come as CRLF from a browser: the customer gets one line break, LF.
    await owner.get(`/app/inbox/${conversation.id}`);
    const twoLines = await owner.post(`/app/inbox/${conversation.id}/reply`, {
      kind: 'text',
      message: 'First line\r\nSecond line',
      messageId: 'crlf-reply-1',
    });
    assert.equal(twoLines.status, 303);
    await eventually(async () =>
      (await receivedBy(t, USER)).some((m: { rendered: string }) => m.rendered === 'First line\nSecond line'),
    );

    // Another account neither sees nor removes it.
    const other = new PortalClient(t.url);
    await other.signUp('other@replies.example', PASSWORD, 'Other Shop');
    assert.doesNotMatch((await other.get('/app/inbox/replies')).html, /hours/);
    assert.equal((await other.post(`/app/inbox/replies/${saved.id}/remove`, {})).status, 404);

    const removed = await owner.post(`/app/inbox/replies/${saved.id}/remove`, {});
    assert.equal(removed.status, 303);
    assert.match((await owner.get(removed.location!)).html, /No saved replies yet/);
    const gone = await owner.get(`/app/inbox/${conversation.id}?saved=${saved.id}`);
    assert.match(gone.html, /<textarea id="f-message" name="message" rows="3"><\/textarea>/);
  });

  test('notes are kept on the conversation for the team, named by their author, never sent', async () => {
    const agent = new PortalClient(t.url);
    await agent.signUp('agent@notes.example', PASSWORD, 'Notes Shop');
    const account = await portalAccount(t, 'agent@notes.example');
    const user = '447911200452';
    await joinSandbox(t, account, user);
    const { id } = await t.gateway.store.db
      .selectFrom('inbox_conversations')
      .select('id')
      .where('account_id', '=', account.accountId)
      .executeTakeFirstOrThrow();
    assert.match((await agent.get(`/app/inbox/${id}`)).html, /No notes yet/);
    const added = await agent.post(`/app/inbox/${id}/notes`, {
      note: 'Refund sent <i>today</i>.\nCall back Monday.',
    });
    assert.equal(added.status, 303);
    const page = await agent.get(added.location!);
    assert.match(page.html, /The note was added\. Only your team sees it\./);
    assert.match(
      page.html,
      /<li class="note"><p class="who">agent@notes\.example<\/p>\s*<p class="text">Refund sent &lt;i&gt;today&lt;\/i&gt;\.\nCall back Monday\.<\/p>/,
    );
    const empty = await agent.post(`/app/inbox/${id}/notes`, { note: '  ' });
    assert.equal(empty.status, 400);
    assert.match(empty.html, /id="f-note-error">`note` must be 1 to 4096 characters/);

    const stranger = new PortalClient(t.url);
    await stranger.signUp('stranger@notes.example', PASSWORD, 'Stranger Shop');
    assert.equal((await stranger.post(`/app/inbox/${id}/notes`, { note: 'hello' })).status, 404);
    assert.equal((await stranger.get(`/app/inbox/${id}`)).status, 404);
    const phone = await receivedBy(t, user);
    assert.ok(
      phone.every((m: { rendered: string }) => !m.rendered.includes('Refund sent')),
      'the customer never receives a note',
    );
  });

  test("a conversation with a customer who opted out of the number's marketing says so, and how", async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('owner@optout.example', PASSWORD, 'Opt-out Shop');
    const account = await portalAccount(t, 'owner@optout.example');
    const number = '14155550141';
    await addSimulatedNumber(t, account.accountId, number);
    const user = '447911200471';
    await userSays(t, user, `+${number}`, { text: 'Hello, do you deliver?' });
    const conversation = await eventually(() =>
      t.gateway.store.db
        .selectFrom('inbox_conversations')
        .select('id')
        .where('account_id', '=', account.accountId)
        .executeTakeFirst(),
    );
    const before = await owner.get(`/app/inbox/${conversation.id}`);
    assert.equal(before.status, 200);
    assert.doesNotMatch(before.html, /<dt>Marketing<\/dt>/, 'nothing to say while they have not opted out');
    await userSays(t, user, `+${number}`, { text: 'STOP' });
    const after = await eventually(async () => {
      const page = await owner.get(`/app/inbox/${conversation.id}`);
      return /<dt>Marketing<\/dt>/.test(page.html) && page;
    });
    assert.match(
      after.html,
      /<dd>Opted out on <time datetime="[^"]+">[^<]+<\/time>: Replied “STOP”\. Marketing templates are not sent to them\.<\/dd>/,
    );
  });
});
