/**
 * The customer portal over real HTTP with cookies kept by hand: sign-up, sign-in and its lockout, CSRF,
 * the settings page (join code, API keys shown once, working against the API, revoked), the message log
 * scoped by account, template and webhook forms with the API's own rules. The sign-in lockout is also
 * checked on PostgreSQL with two gateway nodes sharing one database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SANDBOX_NUMBER } from '../../src/config/config.ts';
import { verifyAsDocumented } from '../support/documented-verify.ts';
import { SIGN_UP_FLOW } from '../support/flows.ts';
import {
  call,
  eventually,
  joinSandbox,
  type PostgresNodes,
  startGateway,
  startPostgresNodes,
  type TestGateway,
} from '../support/gateway.ts';
import { codeOfId, PortalClient } from '../support/portal-client.ts';
import { postgresSkipReason } from '../support/postgres.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const PASSWORD = 'correct horse battery staple';
const SANDBOX = `+${DEFAULT_SANDBOX_NUMBER}`;

async function accountOf(t: TestGateway, email: string) {
  const user = await t.gateway.store.db
    .selectFrom('portal_users')
    .selectAll()
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  const account = await t.gateway.repos.accounts.findAccount(user.account_id);
  return { user, account: account! };
}

/**
 * Creates an API key on the settings page, POST-redirect-GET: the POST redirects, the page it leads to
 * shows the key, a reload shows it no more. Returns the key and the page that showed it.
 */
async function createKey(client: PortalClient, name = 'test') {
  const created = await client.post('/app/settings/keys', { name });
  assert.equal(created.status, 303);
  assert.equal(created.location, '/app/settings?notice=key-created');
  const page = await client.get(created.location!);
  assert.equal(page.status, 200);
  const key = codeOfId(page.html, 'new-key');
  assert.match(key ?? '', /^sb_live_[0-9A-Za-z]{32}$/);
  const reloaded = await client.get(created.location!);
  assert.equal(codeOfId(reloaded.html, 'new-key'), undefined, 'a reload shows the key no more');
  assert.match(page.html, /Copy it now/);
  assert.doesNotMatch(reloaded.html, /Copy it now/, 'nor asks to copy it');
  assert.match(reloaded.html, /shown once; it cannot be shown again/);
  return { key: key!, page };
}

describe('portal on SQLite', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway();
  });
  after(async () => {
    await t?.close();
  });

  test('the root of the gateway leads a browser to the portal', async () => {
    const root = await fetch(`${t.url}/`, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/app');
    const app = await fetch(`${t.url}/`);
    assert.equal(app.status, 200);
    assert.match(await app.text(), /Sign in to Switchboard/);
  });

  test('sign-up creates an account with a join code and a user, and signs the browser in', async () => {
    const client = new PortalClient(t.url);
    const form = await client.get('/app/sign-up');
    assert.equal(form.status, 200);
    assert.match(form.html, /<label for="f-email">Email<\/label>/);
    const created = await client.post('/app/sign-up', {
      email: 'Owner@Example.org',
      password: PASSWORD,
      businessName: 'Acme <Shop>',
    });
    assert.equal(created.status, 303);
    assert.equal(created.location, '/app/settings?notice=welcome');
    const cookie = created.setCookies.find((c) => c.startsWith('sb_session='));
    assert.ok(cookie, 'a session cookie is set');
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.match(cookie, /; Path=\/app/);
    assert.doesNotMatch(cookie, /Secure/, 'plain http with an http PUBLIC_URL');

    const { user, account } = await accountOf(t, 'owner@example.org');
    assert.equal(account.name, 'Acme <Shop>');
    assert.match(account.joinCode, /^[a-z]+-[a-z]+-[a-z]+-\d{6}$/);
    // The suites' own cost (test/support/gateway.ts); test/e2e/password-hashing.test.ts holds a gateway to the full one.
    assert.match(user.password_hash, /^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    assert.ok(!user.password_hash.includes(PASSWORD));
    const token = client.cookies.get('sb_session')!;
    const sessions = await t.gateway.store.db.selectFrom('portal_sessions').selectAll().execute();
    assert.ok(sessions.length >= 1);
    assert.ok(
      sessions.every((s) => s.token_hash !== token),
      'the token itself is never stored',
    );

    const settings = await client.get(created.location!);
    assert.equal(settings.status, 200);
    assert.match(settings.html, /Acme &lt;Shop&gt;/, 'the business name is escaped');
    assert.doesNotMatch(settings.html, /Acme <Shop>/);
  });

  test('sign-up refuses a short password, a bad email and a taken email, naming the field', async () => {
    const client = new PortalClient(t.url);
    await client.get('/app/sign-up');
    const short = await client.post('/app/sign-up', {
      email: 'short@example.org',
      password: 'elevenchars',
      businessName: 'Short Co',
    });
    assert.equal(short.status, 400);
    assert.match(short.html, /at least 12 characters/);
    assert.match(short.html, /id="f-password"[^>]*aria-invalid="true"/);
    const bad = await client.post('/app/sign-up', { email: 'nope', password: PASSWORD, businessName: 'X' });
    assert.equal(bad.status, 400);
    assert.match(bad.html, /Enter an email address/);
    // Far too long is told at its field too, with the form kept, never on a page that loses it.
    const long = await client.post('/app/sign-up', {
      email: `${'e'.repeat(300)}@example.org`,
      password: 'p'.repeat(5000),
      businessName: 'N'.repeat(500),
    });
    assert.equal(long.status, 400);
    assert.match(long.html, /id="f-email"[^>]*aria-invalid="true"/);
    assert.match(long.html, /The password may be at most 1024 characters/);
    assert.match(long.html, /Enter the business name \(1 to \d+ characters\)/);
    const signIn = new PortalClient(t.url);
    await signIn.get('/app/sign-in');
    const wrong = await signIn.post('/app/sign-in', {
      email: 'short@example.org',
      password: 'p'.repeat(5000),
    });
    assert.equal(wrong.status, 401);
    assert.match(wrong.html, /The email or the password is not right/);
    await client.post('/app/sign-up', { email: 'taken@example.org', password: PASSWORD, businessName: 'A' });
    const other = new PortalClient(t.url);
    await other.get('/app/sign-up');
    const taken = await other.post('/app/sign-up', {
      email: 'TAKEN@example.org',
      password: PASSWORD,
      businessName: 'B',
    });
    assert.equal(taken.status, 409);
    assert.match(taken.html, /already uses this email/);
  });

  test('sign-in with a wrong password fails with 401 and no session; the right one signs in', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('signin@example.org', PASSWORD, 'Sign In Co');
    const client = new PortalClient(t.url);
    const wrong = await client.signIn('signin@example.org', 'not the password at all');
    assert.equal(wrong.status, 401);
    assert.match(wrong.html, /The email or the password is not right/);
    assert.equal(client.cookies.has('sb_session'), false);
    const unknown = await client.signIn('nobody@example.org', PASSWORD);
    assert.equal(unknown.status, 401, 'an unknown email gets the same answer');
    const right = await client.signIn('signin@example.org', PASSWORD);
    assert.equal(right.status, 303);
    assert.equal(right.location, '/app/dashboard', 'the portal opens on the dashboard');
    assert.equal((await client.get('/app/dashboard')).status, 200);
  });

  test('five failed sign-ins lock the email out for 15 minutes with 429, even for the right password', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('locked@example.org', PASSWORD, 'Locked Co');
    const client = new PortalClient(t.url);
    for (let i = 1; i <= 4; i++) {
      const wrong = await client.signIn('locked@example.org', `wrong password ${i}`);
      assert.equal(wrong.status, 401);
      // The last wrong password before the lock is told beforehand, and only that one.
      const warned = /One more wrong password locks sign-in for this email for 15 minutes\./.test(wrong.html);
      assert.equal(warned, i === 4, `attempt ${i}`);
    }
    const fifth = await client.signIn('locked@example.org', 'wrong password 5');
    assert.equal(fifth.status, 429);
    assert.match(
      fifth.html,
      /Too many failed sign-ins for this email: sign-in is locked for 15 more minutes/,
    );
    const right = await client.signIn('locked@example.org', PASSWORD);
    assert.equal(right.status, 429);
    assert.equal(client.cookies.has('sb_session'), false);
    // Another email is not affected.
    assert.equal((await client.signIn('signin@example.org', PASSWORD)).status, 303);
  });

  test('without a mail server, a forgotten password is answered with who can make the link', async () => {
    const client = new PortalClient(t.url);
    const shown = await client.get('/app/forgot-password');
    await client.get('/app/sign-in'); // its form's token, which a post from a stale page would carry
    const asked = await client.post('/app/forgot-password', { email: 'someone@example.org' });
    for (const answer of [shown, asked]) {
      assert.equal(answer.status, 200);
      assert.match(answer.html, /This gateway sends no email/);
      assert.match(answer.html, /users invite --account &lt;accountId&gt; --email &lt;your email&gt;/);
      assert.doesNotMatch(answer.html, /<form method="post" action="\/app\/forgot-password"/);
    }
  });

  test('a POST without the CSRF token, or with another one, is refused with 403', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('csrf@example.org', PASSWORD, 'Csrf Co');
    const missing = await client.post('/app/settings/keys', { name: 'x' }, { csrf: false });
    assert.equal(missing.status, 403);
    assert.match(missing.html, /did not come from this site/);
    const other = await client.post('/app/settings/keys', { name: 'x' }, { csrf: 'A'.repeat(43) });
    assert.equal(other.status, 403);
    const accountId = (await accountOf(t, 'csrf@example.org')).account.id;
    assert.equal((await t.gateway.repos.accounts.listKeysOfAccount(accountId)).length, 0);

    const anonymous = new PortalClient(t.url);
    await anonymous.get('/app/sign-in');
    const noToken = await anonymous.post(
      '/app/sign-in',
      { email: 'csrf@example.org', password: PASSWORD },
      { csrf: false },
    );
    assert.equal(noToken.status, 403);
    anonymous.cookies.delete('sb_csrf');
    const noCookie = await anonymous.post('/app/sign-in', { email: 'csrf@example.org', password: PASSWORD });
    assert.equal(noCookie.status, 403, 'the form token must match the cookie');
  });

  test('signed out, a page redirects to sign-in and back after it', async () => {
    const client = new PortalClient(t.url);
    const page = await client.get('/app/messages?tab=in');
    assert.equal(page.status, 303);
    assert.equal(page.location, '/app/sign-in?next=%2Fapp%2Fmessages%3Ftab%3Din');
    await new PortalClient(t.url).signUp('next@example.org', PASSWORD, 'Next Co');
    await client.get(page.location!);
    const signedIn = await client.post('/app/sign-in', {
      email: 'next@example.org',
      password: PASSWORD,
      next: '/app/messages?tab=in',
    });
    assert.equal(signedIn.location, '/app/messages?tab=in');
    const offsite = await new PortalClient(t.url).signIn('next@example.org', PASSWORD);
    assert.equal(offsite.location, '/app/dashboard');
  });

  test('settings show the sandbox number, the join code and the exact join message', async () => {
    const client = new PortalClient(t.url);
    const settings = await client.signUp('settings@example.org', PASSWORD, 'Settings Co');
    const { account } = await accountOf(t, 'settings@example.org');
    assert.equal(codeOfId(settings.html, 'join-code'), account.joinCode);
    assert.equal(codeOfId(settings.html, 'join-text'), `join ${account.joinCode}`);
    assert.equal(codeOfId(settings.html, 'sandbox-number'), SANDBOX);
    assert.match(settings.html, /href="\/simulator\/phone"/);
    assert.match(settings.html, /npm run cli -- numbers add --account acc_/);
  });

  test('a new key is shown once, works against the API, and is refused once revoked', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('keys@example.org', PASSWORD, 'Keys Co');
    const { key } = await createKey(client, 'server');
    const settings = await client.get('/app/settings');
    assert.ok(!settings.html.includes(key), 'the key is not shown again');
    assert.match(settings.html, new RegExp(`<code>${key.slice(0, 14)}…</code>`));

    const found = await call(t.url, 'GET', '/api/v1/msg/message/x', { key });
    assert.equal(found.status, 404, 'the key authenticates: an unknown message, not 401');

    const keyId = /href="\/app\/settings\/keys\/(key_[a-z0-9]+)\/revoke"/.exec(settings.html)![1]!;
    const confirm = await client.get(`/app/settings/keys/${keyId}/revoke`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.html, /This cannot be undone/);
    const revoked = await client.post(`/app/settings/keys/${keyId}/revoke`, {});
    assert.equal(revoked.status, 303);
    assert.equal(revoked.location, '/app/settings?notice=key-revoked');
    assert.equal((await call(t.url, 'GET', '/api/v1/msg/message/x', { key })).status, 401);
    assert.match((await client.get(revoked.location!)).html, /REVOKED/);
  });

  test("the message log shows an account's own messages; another account's message is a 404", async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('log@example.org', PASSWORD, 'Log Co');
    const { key } = await createKey(owner);
    const { account } = await accountOf(t, 'log@example.org');
    const user = '254712300501';
    await joinSandbox(t, { accountId: account.id, apiKey: key, joinCode: account.joinCode }, user);
    const sent = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key,
      body: { messageId: 'portal-log-1', from: SANDBOX, to: `+${user}`, message: 'Hello <b>there</b>' },
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const message = await t.gateway.repos.messages.findByClientId(account.id, 'portal-log-1');
    await eventually(async () => (await t.gateway.repos.messages.timeline(message!.id)).length >= 3);

    const log = await owner.get('/app/messages');
    assert.equal(log.status, 200);
    assert.match(log.html, /Hello &lt;b&gt;there&lt;\/b&gt;/);
    assert.match(log.html, new RegExp(`href="/app/messages/${message!.id}"`));
    const detail = await owner.get(`/app/messages/${message!.id}`);
    assert.equal(detail.status, 200);
    assert.match(detail.html, /<ol class="timeline">.*SENT.*DELIVERED.*READ/s);
    const searched = await owner.get(`/app/messages?number=${user.slice(-6)}&status=READ`);
    assert.match(searched.html, /portal-log-1/);
    const none = await owner.get('/app/messages?number=999999&status=READ');
    assert.match(none.html, /No sent messages match this search/);
    const received = await owner.get('/app/messages?tab=in');
    assert.match(received.html, /join /, 'the join message is in the received tab');
    const badSearch = await owner.get('/app/messages?status=LOST&from=yesterday');
    assert.equal(badSearch.status, 400);
    assert.match(badSearch.html, /Status must be one of PENDING, SENT, DELIVERED, READ, FAILED/);
    assert.match(badSearch.html, /Use a date like 2026-11-23/);

    // The log as CSV, as the search keeps it; a cell that looks like a formula is written as text.
    const formula = await call(t.url, 'POST', '/api/v1/msg/message/text', {
      key,
      body: { messageId: 'portal-log-2', from: SANDBOX, to: `+${user}`, message: '=HYPERLINK("x")' },
    });
    assert.equal(formula.status, 200, JSON.stringify(formula.body));
    assert.match(log.html, /href="\/app\/messages\.csv\?tab=out" download>Export sent messages as CSV/);
    const csv = await owner.get('/app/messages.csv?tab=out');
    assert.equal(csv.status, 200);
    const lines = csv.html.trim().split('\n');
    assert.equal(lines[0], 'sentAt,to,messageId,kind,message,status');
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',').slice(1, 3).join(' ')),
      [`+${user} portal-log-2`, `+${user} portal-log-1`],
    );
    assert.match(lines[1]!, /,"'=HYPERLINK\(""x""\)",/);
    const read = await owner.get(`/app/messages.csv?status=READ&number=${user.slice(-6)}`);
    assert.match(read.html, /portal-log-1/);
    const inbound = await owner.get('/app/messages.csv?tab=in');
    assert.match(inbound.html.split('\n')[0]!, /^receivedAt,from,profileName,to,type,message$/);
    assert.match(inbound.html, /join /);
    assert.equal((await owner.get('/app/messages.csv?from=yesterday')).status, 400);

    const stranger = new PortalClient(t.url);
    await stranger.signUp('stranger@example.org', PASSWORD, 'Stranger Co');
    const hidden = await stranger.get(`/app/messages/${message!.id}`);
    assert.equal(hidden.status, 404);
    assert.doesNotMatch((await stranger.get('/app/messages')).html, /portal-log-1/);
    assert.equal(
      (await stranger.get('/app/messages.csv')).html.trim(),
      'sentAt,to,messageId,kind,message,status',
    );
  });

  test('the team: a member added by a link, a password reset by a link, a member removed and signed out', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('team-owner@example.org', PASSWORD, 'Team Co');
    const team = await owner.get('/app/team');
    assert.match(team.html, /team-owner@example\.org <span class="hint">\(you\)<\/span>/);
    const refused = await owner.post('/app/team', { email: 'not an email', role: 'agent' });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /id="f-email-error">/);

    const badRole = await owner.post('/app/team', { email: 'x@example.org', role: 'emperor' });
    assert.equal(badRole.status, 400);
    assert.match(badRole.html, /id="f-role-error">must be one of owner, admin, agent, developer/);
    const made = await owner.post('/app/team', { email: 'helper@example.org', role: 'admin' });
    assert.equal(made.status, 200);
    assert.match(made.html, /shown only on this page/);
    const linkOf = (html: string) =>
      /<code>https?:\/\/[^/<]+(\/app\/invite\/[A-Za-z0-9_-]{43})<\/code>/.exec(html)![1]!;
    const helper = new PortalClient(t.url);
    const joinLink = linkOf(made.html);
    await helper.get(joinLink);
    assert.equal((await helper.post(joinLink, { password: 'helper password 123' })).status, 303);
    assert.equal((await helper.get('/app/dashboard')).status, 200, 'the new member is in');
    const listed = await owner.get('/app/team');
    const row = /<td data-label="Email">helper@example\.org<\/td>[\s\S]*?<\/tr>/.exec(listed.html)![0];
    assert.match(row, /<td data-label="Last sign-in"><time /, 'the sign-in is shown');
    const helperId = /action="\/app\/team\/([^/"]+)\/reset"/.exec(row)![1]!;

    // A password reset: the link sets a new one; the old no longer signs in.
    const reset = await owner.post(`/app/team/${helperId}/reset`, {});
    assert.match(reset.html, /sets a new password for <strong>helper@example\.org<\/strong>/);
    const resetLink = linkOf(reset.html);
    const again = new PortalClient(t.url);
    await again.get(resetLink);
    assert.equal((await again.post(resetLink, { password: 'a brand new password' })).status, 303);
    assert.equal(
      (await new PortalClient(t.url).signIn('helper@example.org', 'helper password 123')).status,
      401,
    );
    assert.equal(
      (await new PortalClient(t.url).signIn('helper@example.org', 'a brand new password')).status,
      303,
    );

    // Another account can neither reset nor remove this member.
    const stranger = new PortalClient(t.url);
    await stranger.signUp('team-stranger@example.org', PASSWORD, 'Stranger Team Co');
    await stranger.get('/app/team');
    assert.equal((await stranger.post(`/app/team/${helperId}/reset`, {})).status, 404);
    assert.equal((await stranger.get(`/app/team/${helperId}/remove`)).status, 404);
    assert.equal((await stranger.post(`/app/team/${helperId}/remove`, {})).status, 404);

    // Removed after a confirmation: signed out at once. Nobody removes themselves.
    assert.match((await owner.get(`/app/team/${helperId}/remove`)).html, /They are signed out at once/);
    assert.equal(
      (await owner.post(`/app/team/${helperId}/remove`, {})).location,
      '/app/team?notice=member-removed',
    );
    assert.equal((await helper.get('/app/dashboard')).status, 303, "the member's session ended");
    assert.equal(
      (await new PortalClient(t.url).signIn('helper@example.org', 'a brand new password')).status,
      401,
    );
    const ownerId = /action="\/app\/team\/([^/"]+)\/reset"/.exec((await owner.get('/app/team')).html)![1]!;
    const self = await owner.post(`/app/team/${ownerId}/remove`, {});
    assert.equal(self.status, 409);
    assert.match(self.html, /You cannot remove yourself/);
  });

  test('a pending invitation is listed and can be revoked: its link then no longer works', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('inviter@example.org', PASSWORD, 'Invites Co');
    await owner.get('/app/team');
    const made = await owner.post('/app/team', { email: 'wrong-person@example.org', role: 'agent' });
    const link = /<code>https?:\/\/[^/<]+(\/app\/invite\/[A-Za-z0-9_-]{43})<\/code>/.exec(made.html)![1]!;
    const team = await owner.get('/app/team');
    const row =
      /<td data-label="For">wrong-person@example\.org<\/td><td data-label="Role">agent<\/td>[\s\S]*?<\/tr>/.exec(
        team.html,
      )?.[0];
    assert.ok(row, 'the invitation is listed with its email and role');
    assert.doesNotMatch(team.html, new RegExp(link.slice(-43)), 'never its link');
    const revoke = /action="(\/app\/team\/invitations\/[0-9a-f]{16}\/revoke)"/.exec(row!)![1]!;

    // Another account cannot revoke it.
    const stranger = new PortalClient(t.url);
    await stranger.signUp('invite-stranger@example.org', PASSWORD, 'Invite Stranger Co');
    await stranger.get('/app/team');
    assert.equal((await stranger.post(revoke, {})).status, 404);

    const revoked = await owner.post(revoke, {});
    assert.equal(revoked.location, '/app/team?notice=invitation-revoked');
    const after = await owner.get(revoked.location!);
    assert.match(after.html, /The invitation was revoked: its link no longer works\./);
    assert.doesNotMatch(after.html, /wrong-person@example\.org/);
    const opener = new PortalClient(t.url);
    const opened = await opener.get(link);
    assert.equal(opened.status, 410, 'the link no longer opens');
    assert.equal((await owner.post(revoke, {})).status, 404, 'revoked once');
  });

  test('roles: an agent keeps to the customer side, a developer to the technical one, an admin below owners', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('roles-owner@example.org', PASSWORD, 'Roles Co');
    await owner.get('/app/team');
    const join = async (email: string, role: string) => {
      const made = await owner.post('/app/team', { email, role });
      const link = /<code>https?:\/\/[^/<]+(\/app\/invite\/[A-Za-z0-9_-]{43})<\/code>/.exec(made.html)![1]!;
      const member = new PortalClient(t.url);
      await member.get(link);
      assert.equal((await member.post(link, { password: `${role} password 1234` })).status, 303);
      await owner.get('/app/team');
      return member;
    };
    const agent = await join('roles-agent@example.org', 'agent');
    const developer = await join('roles-dev@example.org', 'developer');
    const admin = await join('roles-admin@example.org', 'admin');

    const status = async (client: PortalClient, path: string) => (await client.get(path)).status;
    for (const path of ['/app/dashboard', '/app/messages', '/app/messages.csv', '/app/contacts'])
      assert.equal(await status(agent, path), 200, `agent: ${path}`);
    for (const path of [
      '/app/settings',
      '/app/webhooks',
      '/app/team',
      '/app/campaigns',
      '/app/templates',
      '/app/flows',
    ])
      assert.equal(await status(agent, path), 403, `agent: ${path}`);
    const agentPage = await agent.get('/app/contacts');
    assert.doesNotMatch(
      agentPage.html,
      /href="\/app\/settings"|href="\/app\/webhooks"/,
      'the menu offers only what opens',
    );
    // Nor does the dashboard link to what the role cannot open.
    for (const [client, closed] of [
      [agent, /href="\/app\/(campaigns|webhooks)/],
      [developer, /href="\/app\/campaigns/],
    ] as const)
      assert.doesNotMatch((await client.get('/app/dashboard')).html, closed);
    const keyAttempt = await agent.post('/app/settings/keys', { name: 'sneaky' });
    assert.equal(keyAttempt.status, 403, 'an action is refused as its page is');
    assert.match(keyAttempt.html, /As agent, you cannot open this page/);

    for (const path of ['/app/settings', '/app/webhooks', '/app/flows', '/app/messages'])
      assert.equal(await status(developer, path), 200, `developer: ${path}`);
    for (const path of ['/app/team', '/app/contacts', '/app/campaigns'])
      assert.equal(await status(developer, path), 403, `developer: ${path}`);

    // An admin manages the team, below owners: no owner is added or removed by them.
    await admin.get('/app/team');
    const asOwner = await admin.post('/app/team', { email: 'roles-owner@example.org', role: 'admin' });
    assert.equal(asOwner.status, 409, "a link for the owner's email would set the owner's password");
    assert.match(asOwner.html, /is a member of this account already: make them a password link instead/);
    // Nor a link made for no email, opened with the owner's: it would set the owner's password.
    const open = await admin.post('/app/team', { email: '', role: 'agent' });
    const openLink = /<code>https?:\/\/[^/<]+(\/app\/invite\/[A-Za-z0-9_-]{43})<\/code>/.exec(open.html)![1]!;
    const opener = new PortalClient(t.url);
    await opener.get(openLink);
    const hijack = await opener.post(openLink, {
      email: 'roles-owner@example.org',
      password: 'taken over 12345',
    });
    assert.equal(hijack.status, 409);
    assert.match(hijack.html, /This email has a portal user already/);
    assert.equal((await new PortalClient(t.url).signIn('roles-owner@example.org', PASSWORD)).status, 303);
    const noOwner = await admin.post('/app/team', { email: 'roles-boss@example.org', role: 'owner' });
    assert.equal(noOwner.status, 400);
    assert.match(noOwner.html, /as admin, you cannot add an owner/);
    const team = await admin.get('/app/team');
    assert.doesNotMatch(
      /<td data-label="Email">roles-owner@example\.org<\/td>[\s\S]*?<\/tr>/.exec(team.html)![0],
      /Password link|Remove/,
      'an admin is offered nothing on an owner',
    );
    const ownerId = /action="\/app\/team\/([^/"]+)\/reset"/.exec((await owner.get('/app/team')).html)![1]!;
    await admin.get('/app/team');
    const takeover = await admin.post(`/app/team/${ownerId}/reset`, {});
    assert.equal(takeover.status, 409, 'an admin cannot make a link that signs in as the owner');
    assert.match(takeover.html, /As admin, you cannot make a password link for an owner/);
    assert.equal((await admin.post(`/app/team/${ownerId}/remove`, {})).status, 409);
    // Roles change at once, by one who manages both the old and the new: never to or from owner by an
    // admin, never one's own.
    const devId =
      /<td data-label="Email">roles-dev@example\.org<\/td>[\s\S]*?action="\/app\/team\/([^/"]+)\/role"/.exec(
        team.html,
      )![1]!;
    assert.equal(
      (await admin.post(`/app/team/${devId}/role`, { role: 'agent' })).location,
      '/app/team?notice=role-changed',
    );
    assert.equal(await status(developer, '/app/settings'), 403, 'the new role applies at once');
    assert.equal(await status(developer, '/app/inbox'), 200);
    const promote = await admin.post(`/app/team/${devId}/role`, { role: 'owner' });
    assert.equal(promote.status, 409);
    assert.match(promote.html, /As admin, you cannot make an agent an owner/);
    assert.equal((await admin.post(`/app/team/${ownerId}/role`, { role: 'agent' })).status, 409);
    const adminRow = await t.gateway.store.db
      .selectFrom('portal_users')
      .select('id')
      .where('email', '=', 'roles-admin@example.org')
      .executeTakeFirstOrThrow();
    const own = await admin.post(`/app/team/${adminRow.id}/role`, { role: 'agent' });
    assert.equal(own.status, 409);
    assert.match(own.html, /You cannot change your own role/);
    assert.equal((await admin.post(`/app/team/${devId}/role`, { role: 'boss' })).status, 400);
    const agentId =
      /<td data-label="Email">roles-agent@example\.org<\/td>[\s\S]*?action="\/app\/team\/([^/"]+)\/reset"/.exec(
        team.html,
      )![1]!;
    // A password link made before a removal sets nobody's password after it: above all, it does not
    // bring the removed member back, as an owner or at all.
    const resetPage = await admin.post(`/app/team/${agentId}/reset`, {});
    const resetLink = /<code>https?:\/\/[^/<]+(\/app\/invite\/[A-Za-z0-9_-]{43})<\/code>/.exec(
      resetPage.html,
    )![1]!;
    assert.equal(
      (await admin.post(`/app/team/${agentId}/remove`, {})).location,
      '/app/team?notice=member-removed',
    );
    assert.equal(await status(agent, '/app/dashboard'), 303, 'the removed agent is signed out');
    const comeback = new PortalClient(t.url);
    await comeback.get(resetLink);
    const used = await comeback.post(resetLink, { password: 'back as an owner 123' });
    assert.equal(used.status, 410);
    assert.doesNotMatch((await admin.get('/app/team')).html, /roles-agent@example\.org/);
  });

  test('the template form goes through the API rules: errors next to the field, then PENDING', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('templates@example.org', PASSWORD, 'Templates Co');
    await client.get('/app/templates');
    const fields = {
      phone: DEFAULT_SANDBOX_NUMBER,
      name: 'order_update',
      language: 'en',
      category: 'UTILITY',
      bodyText: 'Your order {{2}} has shipped',
      bodyExamples: '',
    };
    const refused = await client.post('/app/templates', fields);
    assert.equal(refused.status, 400);
    assert.match(
      refused.html,
      /<p class="field-error" id="f-bodyText-error">`component.body.text` uses \{\{2\}\} before \{\{1\}\}/,
    );
    // A link typed for a quick reply is said at its field, not dropped.
    const quick = await client.post('/app/templates', {
      ...fields,
      bodyText: 'Hello {{1}}, your order has shipped',
      bodyExamples: 'Ana',
      button1Type: 'QUICK_REPLY',
      button1Text: 'Later',
      button1Value: 'https://shop.example/later',
    });
    assert.equal(quick.status, 400);
    assert.match(
      quick.html,
      /id="f-button1Value-error">Button 1&#39;s link: a quick reply button has no link or number; leave it empty/,
    );
    const created = await client.post('/app/templates', {
      ...fields,
      bodyText: 'Hello {{1}}, your order has shipped',
      bodyExamples: 'Ana',
      footerText: 'Thanks',
    });
    assert.equal(created.status, 303);
    const list = await client.get(created.location!);
    assert.match(list.html, /<code>order_update<\/code>/);
    assert.match(list.html, /PENDING|APPROVED/);
    assert.match(list.html, /Hello Ana, your order has shipped/, 'the preview fills in the example');

    // Edited once approved: the form is filled from the template; a change it refuses is told at its
    // field; an accepted one goes back to review.
    const approved = await eventually(async () => {
      const page = await client.get('/app/templates');
      return /badge-approved/.test(page.html) && page;
    });
    const edit =
      /href="(\/app\/templates\/\d+\/[^/"]+\/edit)"[^>]*>Edit<span class="visually-hidden"> order_update/.exec(
        approved.html,
      )![1]!;
    // The network's quality rating shows beside the status.
    const templateId = /\/app\/templates\/\d+\/([^/"]+)\/edit/.exec(edit)![1]!;
    const rated = await call(t.url, 'POST', `/simulator/templates/${templateId}/quality`, {
      body: { score: 'YELLOW' },
    });
    assert.equal(rated.status, 200, JSON.stringify(rated.body));
    await eventually(async () =>
      /Quality: medium \(YELLOW\)/.test((await client.get('/app/templates')).html),
    );
    const form = await client.get(edit);
    assert.match(
      form.html,
      /<textarea id="f-bodyText" name="bodyText"[^>]*>Hello \{\{1\}\}, your order has shipped<\/textarea>/,
    );
    assert.match(form.html, /value="Thanks"/);
    const recategorised = await client.post(edit, {
      category: 'MARKETING',
      bodyText: 'Hello {{1}}, your order is on its way',
      bodyExamples: 'Ana',
    });
    assert.equal(recategorised.status, 400);
    assert.match(
      recategorised.html,
      /id="f-category-error">`category` of an approved template cannot change/,
    );
    const edited = await client.post(edit, {
      category: 'UTILITY',
      bodyText: 'Hello {{1}}, your order is on its way',
      bodyExamples: 'Ana',
      footerText: 'Thanks',
    });
    assert.equal(edited.location, '/app/templates?notice=template-edited');
    assert.match((await client.get('/app/templates')).html, /Hello Ana, your order is on its way/);

    // One the network rejects (two variables side by side) says why in words.
    await client.post('/app/templates', {
      ...fields,
      name: 'code_first',
      bodyText: 'Your code {{1}}{{2}} is here',
      bodyExamples: '12\n34',
    });
    const rejected = await eventually(async () => {
      const page = await client.get('/app/templates');
      return /badge-rejected/.test(page.html) && page;
    });
    // In the network's own words (`rejection_info`), as it gave them.
    assert.match(
      rejected.html,
      /Rejected \(INVALID_FORMAT\): The body text has two variables next to each other\. Put fixed text between variables\./,
    );

    // Deleted after a page that says so; another account cannot even see that page.
    const remove =
      /href="(\/app\/templates\/\d+\/[^/"]+\/delete)"[^>]*>Delete<span class="visually-hidden"> code_first/.exec(
        rejected.html,
      )![1]!;
    assert.match(
      (await client.get(remove)).html,
      /Delete the template <code>code_first<\/code>[\s\S]*This cannot be undone/,
    );
    const stranger = new PortalClient(t.url);
    await stranger.signUp('templates-stranger@example.org', PASSWORD, 'Template Peeker Co');
    assert.equal((await stranger.get(remove)).status, 404);
    assert.equal((await stranger.get(edit)).status, 404);
    await stranger.get('/app/templates');
    assert.equal((await stranger.post(remove, {})).status, 404);
    assert.equal((await stranger.post(edit, { category: 'UTILITY', bodyText: 'Mine now' })).status, 404);
    const deleted = await client.post(remove, {});
    assert.equal(deleted.location, '/app/templates?notice=template-deleted');
    const after = await client.get(deleted.location!);
    assert.doesNotMatch(after.html, /code_first/);
    assert.match(after.html, /<code>order_update<\/code>/);
  });

  test('a flow is created from Flow JSON with the API checks, previewed, published after a confirmation, deprecated; a draft deleted', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('flows@example.org', PASSWORD, 'Flows Co');
    await client.get('/app/flows');
    const fields = { phoneNumber: DEFAULT_SANDBOX_NUMBER, name: 'Sign up', categories: 'SIGN_UP' };
    const invalid = await client.post('/app/flows', { ...fields, flowJson: '{"version": "7.0"}' });
    assert.equal(invalid.status, 400);
    assert.match(invalid.html, /id="f-flowJson-error">`file` is not a valid Flow JSON/);
    const noCategory = await client.post('/app/flows', { ...fields, categories: [], flowJson: SIGN_UP_FLOW });
    assert.equal(noCategory.status, 400);
    assert.match(noCategory.html, /id="categories-error">`categories` must name at least one of/);
    const created = await client.post('/app/flows', { ...fields, flowJson: SIGN_UP_FLOW });
    assert.equal(created.status, 303);
    const list = await client.get(created.location!);
    assert.match(list.html, /badge-draft/);
    // A draft is edited with the same checks; the network checks its Flow JSON again.
    const edit = /href="(\/app\/flows\/\d+\/edit)"/.exec(list.html)![1]!;
    assert.match((await client.get(edit)).html, /SIGN_UP/, 'the form holds the Flow JSON');
    const broken = await client.post(edit, { ...fields, name: 'Sign up v2', flowJson: '{"version": "7.0"}' });
    assert.equal(broken.status, 400);
    assert.match(broken.html, /id="f-flowJson-error">`file` is not a valid Flow JSON/);
    const saved = await client.post(edit, { ...fields, name: 'Sign up v2', flowJson: SIGN_UP_FLOW });
    assert.equal(saved.location, '/app/flows?notice=flow-saved');
    assert.match((await client.get(saved.location!)).html, /Sign up v2/);
    const preview = /href="[^"]*(\/flows\/preview\/[^"]+)"/.exec(list.html)![1]!;
    assert.equal((await fetch(t.url + preview)).status, 200, 'the preview link opens the preview page');
    // Publishing cannot be undone: the list links to a page that says so and asks.
    const publish = /href="(\/app\/flows\/\d+\/publish)"/.exec(list.html)![1]!;
    const asked = await client.get(publish);
    assert.match(asked.html, /its Flow JSON can no longer be changed[^<]*This cannot be undone/);
    assert.match(asked.html, new RegExp(`<form method="post" action="${publish}">`));
    const published = await client.post(publish, {});
    assert.equal(published.location, '/app/flows?notice=flow-published');
    const afterPublish = await client.get(published.location!);
    assert.match(afterPublish.html, /badge-published/);
    const frozen = await client.get(edit);
    assert.equal(frozen.status, 409);
    assert.match(frozen.html, /only a DRAFT flow can change/);
    const again = await client.post(publish, {});
    assert.equal(again.status, 409);
    assert.match(again.html, /is already PUBLISHED/);
    const deprecate = /href="(\/app\/flows\/\d+\/deprecate)"/.exec(afterPublish.html)![1]!;
    assert.match((await client.get(deprecate)).html, /It can no longer be sent/);
    assert.equal((await client.post(deprecate, {})).location, '/app/flows?notice=flow-deprecated');
    assert.match((await client.get('/app/flows')).html, /badge-deprecated/);

    const draft = await client.post('/app/flows', { ...fields, name: 'Never sent', flowJson: SIGN_UP_FLOW });
    const drafts = await client.get(draft.location!);
    const remove = /href="(\/app\/flows\/\d+\/delete)"/.exec(drafts.html)![1]!;
    assert.match((await client.get(remove)).html, /Delete the draft <strong>Never sent<\/strong>/);
    assert.equal((await client.post(remove, {})).location, '/app/flows?notice=flow-deleted');
    assert.doesNotMatch((await client.get('/app/flows')).html, /Never sent/);

    const stranger = new PortalClient(t.url);
    await stranger.signUp('flows-stranger@example.org', PASSWORD, 'Flow Peeker Co');
    assert.equal((await stranger.get(deprecate)).status, 404);
    await stranger.get('/app/flows');
    assert.equal((await stranger.post(deprecate, {})).status, 404);
  });

  test('webhook endpoints follow the API URL rules; the secret is shown; delete asks first', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('hooks@example.org', PASSWORD, 'Hooks Co');
    await client.get('/app/webhooks');
    const refused = await client.post('/app/webhooks', {
      url: 'http://127.0.0.1:9/x',
      events: 'message.status',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /id="f-url-error">The URL /);
    const noEvents = await client.post('/app/webhooks', { url: 'https://example.com/hook' });
    assert.equal(noEvents.status, 400);
    assert.match(noEvents.html, /Choose at least one event type/);
    const created = await client.post('/app/webhooks', {
      url: 'https://example.com/hook',
      events: ['message.status', 'message.received'],
    });
    assert.equal(created.status, 303);
    const detail = await client.get(created.location!);
    assert.match(detail.html, /<code>whsec_[^<]+<\/code>/);
    const id = /\/app\/webhooks\/(whk_[a-z0-9]+)/.exec(created.location!)![1]!;
    const { account } = await accountOf(t, 'hooks@example.org');
    const row = await t.gateway.repos.webhooks.findEndpointOfAccount(account.id, id);
    assert.deepEqual(JSON.parse(row!.events), ['message.status', 'message.received']);

    const stranger = new PortalClient(t.url);
    await stranger.signUp('hooks-stranger@example.org', PASSWORD, 'Other Co');
    assert.equal((await stranger.get(`/app/webhooks/${id}`)).status, 404);
    assert.equal((await stranger.post(`/app/webhooks/${id}/delete`, {})).status, 404);

    assert.match((await client.get(`/app/webhooks/${id}/delete`)).html, /This cannot be undone/);
    const deleted = await client.post(`/app/webhooks/${id}/delete`, {});
    assert.equal(deleted.location, '/app/webhooks?notice=webhook-deleted');
    assert.equal(await t.gateway.repos.webhooks.findEndpointOfAccount(account.id, id), undefined);
  });

  test('sign-out ends the session on the server too', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('signout@example.org', PASSWORD, 'Sign Out Co');
    const token = client.cookies.get('sb_session')!;
    const out = await client.post('/app/sign-out', {});
    assert.equal(out.location, '/app/sign-in?notice=signed-out');
    const replayed = await fetch(`${t.url}/app/settings`, {
      headers: { cookie: `sb_session=${token}` },
      redirect: 'manual',
    });
    assert.equal(replayed.status, 303, 'the old cookie no longer works');
  });

  test('the JSON API is unchanged: a form body there is still refused in the envelope', async () => {
    const r = await fetch(`${t.url}/api/v1/msg/message/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', apiKey: 'sb_live_x' },
      body: 'a=b',
    });
    assert.equal(r.status, 401);
    assert.equal(((await r.json()) as any).message, 'Invalid credentials');
  });
});

describe('portal behind https, with webhook deliveries', () => {
  let t: TestGateway;
  let receiver: Receiver;
  before(async () => {
    t = await startGateway({
      env: { PUBLIC_URL: 'https://portal.example.org', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    receiver = await startReceiver();
  });
  after(async () => {
    await t?.close();
    await receiver?.close();
  });

  test('cookies are Secure when PUBLIC_URL is https', async () => {
    const client = new PortalClient(t.url);
    const form = await client.get('/app/sign-up');
    assert.match(form.setCookies.find((c) => c.startsWith('sb_csrf='))!, /; Secure/);
    const created = await client.post('/app/sign-up', {
      email: 'secure@example.org',
      password: PASSWORD,
      businessName: 'Secure Co',
    });
    assert.match(created.setCookies.find((c) => c.startsWith('sb_session='))!, /; Secure/);
  });

  test('an idle-expired session no longer signs in', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('idle@example.org', PASSWORD, 'Idle Co');
    const { user } = await accountOf(t, 'idle@example.org');
    await t.gateway.store.db
      .updateTable('portal_sessions')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', user.id)
      .execute();
    const page = await client.get('/app/settings');
    assert.equal(page.status, 303);
    assert.match(page.location!, /^\/app\/sign-in/);
    const left = await t.gateway.store.db
      .selectFrom('portal_sessions')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    assert.equal(left.length, 0, 'the expired session is deleted');
  });

  test('an endpoint shows its deliveries with their attempts, and one can be delivered again', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('deliveries@example.org', PASSWORD, 'Deliveries Co');
    const { account } = await accountOf(t, 'deliveries@example.org');
    await client.get('/app/webhooks');
    const created = await client.post('/app/webhooks', { url: receiver.url, events: 'message.received' });
    assert.equal(created.status, 303);
    const endpointPath = created.location!.split('?')[0]!;
    await joinSandbox(t, { accountId: account.id, apiKey: '', joinCode: account.joinCode }, '254712300777');
    await eventually(() => receiver.received.length === 1);
    const detail = await eventually(async () => {
      const page = await client.get(endpointPath);
      return /<td data-label="Status code">2\d\d<\/td>/.test(page.html) && page;
    });
    assert.match(detail.html, /message\.received/);
    assert.match(detail.html, /<td data-label="Latency">\d+ ms<\/td>/);
    const action = /action="(\/app\/webhooks\/whk_[a-z0-9]+\/deliveries\/dlv_[a-z0-9]+\/redeliver)"/.exec(
      detail.html,
    )![1]!;
    const again = await client.post(action, {});
    assert.equal(again.location, `${endpointPath}?notice=redelivery-queued`);
    await eventually(() => receiver.received.length === 2);
    const after = await eventually(async () => {
      const page = await client.get(again.location!);
      return (page.html.match(/data-label="Status code">2\d\d</g) ?? []).length === 2 && page;
    });
    assert.match(after.html, /The delivery was queued to be attempted again now/);

    const stranger = new PortalClient(t.url);
    await stranger.signUp('deliveries-stranger@example.org', PASSWORD, 'Stranger Co');
    assert.equal((await stranger.post(action, {})).status, 404);
  });
  test('an endpoint is changed, turned off and on, sent a test event, and its secret rotated', async () => {
    const client = new PortalClient(t.url);
    await client.signUp('lifecycle@example.org', PASSWORD, 'Lifecycle Co');
    await client.get('/app/webhooks');
    const created = await client.post('/app/webhooks', { url: receiver.url, events: 'message.received' });
    const path = created.location!.split('?')[0]!;
    const id = path.split('/').pop()!;

    // Changed: a URL the rule refuses is told at its field, and nothing changes; a good one is saved.
    await client.get(path);
    const refused = await client.post(path, { url: 'ftp://example.com/hook', events: 'message.received' });
    assert.equal(refused.status, 400);
    assert.match(refused.html, /id="f-url-error">The URL /);
    const saved = await client.post(path, {
      url: receiver.url,
      events: ['message.received', 'campaign.completed'],
    });
    assert.equal(saved.location, `${path}?notice=webhook-saved`);
    assert.match((await client.get(path)).html, /<dd>message\.received, campaign\.completed<\/dd>/);

    // Turned off: no test button, and a test posted anyway is refused on the page; on again.
    assert.equal((await client.post(`${path}/disable`, {})).location, `${path}?notice=webhook-disabled`);
    const off = await client.get(path);
    assert.match(off.html, /badge-disabled">DISABLED</);
    assert.doesNotMatch(off.html, /Send a test event/);
    const tested = await client.post(`${path}/test`, {});
    assert.equal(tested.status, 409);
    assert.match(tested.html, /is disabled: enable it to receive events, a test too/);
    assert.equal((await client.post(`${path}/enable`, {})).location, `${path}?notice=webhook-enabled`);

    // A test event: signed with the endpoint's secret, and listed under its type with the body posted.
    await client.get(path);
    const before = receiver.received.length;
    assert.equal((await client.post(`${path}/test`, {})).location, `${path}?notice=webhook-test-sent`);
    const shown = await client.get(path);
    const secret = /<span class="copyable"><code>(whsec_[^<]+)<\/code>/.exec(shown.html)?.[1];
    assert.ok(secret, 'the secret is on the page');
    const test = await eventually(async () =>
      receiver.received.slice(before).find((r) => r.json.type === 'webhook.test'),
    );
    assert.equal(test.json.data.endpointId, id);
    assert.ok(verifyAsDocumented(secret, test.headers, test.body));
    const filtered = await eventually(async () => {
      const page = await client.get(`${path}?event_type=webhook.test&status=succeeded`);
      return /badge-succeeded/.test(page.html) && page;
    });
    assert.match(filtered.html, /<pre class="payload">\{\n {2}&quot;type&quot;: &quot;webhook\.test&quot;/);
    assert.equal((await client.get(`${path}?event_type=nope`)).status, 400);

    // Rotated after a confirmation: the new secret shown once; both sign for a while.
    assert.match((await client.get(`${path}/rotate`)).html, /signed with both the new and the old secret/);
    const rotated = await client.post(`${path}/rotate`, {});
    const newSecret = /<span class="copyable"><code>(whsec_[^<]+)<\/code>/.exec(rotated.html)?.[1];
    assert.ok(newSecret && newSecret !== secret);
    await client.get(path);
    const mark = receiver.received.length;
    await client.post(`${path}/test`, {});
    const signed = await eventually(async () =>
      receiver.received.slice(mark).find((r) => r.json.type === 'webhook.test'),
    );
    assert.ok(verifyAsDocumented(newSecret, signed.headers, signed.body));
    assert.ok(verifyAsDocumented(secret, signed.headers, signed.body));

    const stranger = new PortalClient(t.url);
    await stranger.signUp('lifecycle-stranger@example.org', PASSWORD, 'Stranger Two Co');
    await stranger.get('/app/webhooks');
    for (const suffix of ['', '/test', '/disable', '/enable', '/rotate'])
      assert.equal(
        (await stranger.post(`${path}${suffix}`, { url: receiver.url, events: 'message.received' })).status,
        404,
        suffix,
      );
    assert.equal((await stranger.get(`${path}/rotate`)).status, 404);
  });
});

describe('portal on PostgreSQL, two nodes', async () => {
  const skip = await postgresSkipReason();
  let cluster: PostgresNodes | undefined;
  let a: TestGateway;
  let b: TestGateway;
  before(async () => {
    if (skip) return;
    cluster = await startPostgresNodes(2);
    [a, b] = cluster.nodes as [TestGateway, TestGateway];
  });
  after(async () => {
    await cluster?.close();
  });

  test('sign-up on one node, sign-in on the other; failures on both count toward one lockout', {
    skip,
  }, async () => {
    await new PortalClient(a.url).signUp('pg@example.org', PASSWORD, 'Pg Co');
    const onA = new PortalClient(a.url);
    const onB = new PortalClient(b.url);
    assert.equal((await onB.signIn('pg@example.org', PASSWORD)).status, 303);
    for (let i = 0; i < 2; i++)
      assert.equal((await onA.signIn('pg@example.org', 'wrong wrong wrong')).status, 401);
    for (let i = 0; i < 2; i++)
      assert.equal((await onB.signIn('pg@example.org', 'wrong wrong wrong')).status, 401);
    assert.equal((await onA.signIn('pg@example.org', 'wrong wrong wrong')).status, 429);
    assert.equal((await onB.signIn('pg@example.org', PASSWORD)).status, 429);
  });
});

describe('sign-up answers that tell an email is taken', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway();
  });
  after(() => t.close());

  test('are told ten times an hour to one address, then refused with 429, for a new email too', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('known@example.org', PASSWORD, 'Known Co');
    const prober = new PortalClient(t.url);
    await prober.get('/app/sign-up');
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await prober.post('/app/sign-up', {
        email: 'known@example.org',
        password: PASSWORD,
        businessName: 'X',
      });
      answers.push(r.status);
    }
    assert.deepEqual(answers, [...Array(10).fill(409), 429]);
    const last = await prober.post('/app/sign-up', {
      email: 'KNOWN@example.org',
      password: PASSWORD,
      businessName: 'X',
    });
    assert.equal(last.status, 429);
    assert.match(last.html, /Too many sign-ups from here with emails that have accounts/);
    assert.doesNotMatch(last.html, /already uses this email/);
  });
});

describe('sign-up closed (SIGN_UP=closed)', () => {
  let t: TestGateway;
  before(async () => {
    t = await startGateway({ env: { SIGN_UP: 'closed' } });
  });
  after(() => t.close());

  test('the page says where accounts come from, a posted form makes none, and sign-in offers no sign-up', async () => {
    const visitor = new PortalClient(t.url);
    const page = await visitor.get('/app/sign-up');
    assert.equal(page.status, 403);
    assert.match(page.html, /does not take new accounts from its sign-up page/);
    assert.match(page.html, /npm run cli -- accounts create/);
    // With the sign-in page's own token, so that only the closed sign-up refuses it.
    assert.doesNotMatch((await visitor.get('/app/sign-in')).html, /Create an account/);
    const posted = await visitor.post('/app/sign-up', {
      email: 'stranger@example.org',
      password: PASSWORD,
      businessName: 'Stranger',
    });
    assert.equal(posted.status, 403);
    assert.match(posted.html, /does not take new accounts/);
    const users = await t.gateway.store.db.selectFrom('portal_users').select('email').execute();
    assert.deepEqual(users, [], 'no account was made');
  });
});
