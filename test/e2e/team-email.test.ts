/**
 * The team's one-time links by email (docs/portal.md, "Team"; docs/configuration.md, Email), with a real
 * SMTP server on this machine that requires a login: an invitation for an email and a password link are
 * each mailed to their person with the link, which works; the page also shows the link and says it was
 * sent. A member who forgot their password asks for a link at sign-in and gets it by email; an email no
 * member has is answered in the same words; a fourth request within the hour is refused. With the mail
 * server gone, the page says the email failed and still gives the link. The SMTP password is in no log line.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { eventually } from '../support/eventually.ts';
import { startGateway, type TestGateway } from '../support/gateway.ts';
import { PortalClient } from '../support/portal-client.ts';

const PASSWORD = 'a long enough password';
const SMTP_PASSWORD = 'smtp-secret-7f3a';

interface Mail {
  from: string;
  to: string[];
  raw: string;
}

/** An SMTP server that takes mail from `mailer` / SMTP_PASSWORD only, and keeps what it receives. */
async function startMailServer(): Promise<{ port: number; mails: Mail[]; close(): Promise<void> }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth(auth, _session, done) {
      if (auth.username === 'mailer' && auth.password === SMTP_PASSWORD)
        return done(null, { user: 'mailer' });
      return done(new Error('Invalid login'));
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString(),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The link in a mail's text (quoted-printable soft breaks undone). */
const linkIn = (raw: string) => /https?:\/\/\S+\/app\/invite\/[\w-]+/.exec(raw.replace(/=\r?\n/g, ''))?.[0];

describe('one-time links by email', () => {
  let t: TestGateway;
  let mailServer: Awaited<ReturnType<typeof startMailServer>>;
  const logs = new PassThrough();
  let logged = '';

  before(async () => {
    mailServer = await startMailServer();
    logs.on('data', (c: Buffer) => {
      logged += c.toString();
    });
    t = await startGateway({
      env: {
        LOG_LEVEL: 'trace',
        SMTP_URL: `smtp://mailer:${SMTP_PASSWORD}@127.0.0.1:${mailServer.port}`,
        MAIL_FROM: 'Shop Team <team@shop.example>',
      },
      logStream: logs,
    });
  });
  after(async () => {
    await t?.close();
    await mailServer?.close();
  });

  test('an invitation and a password link are mailed to their person, and the mailed link works', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('owner@shop.example', PASSWORD, 'Shop');
    await owner.get('/app/team');
    const invited = await owner.post('/app/team', { email: 'agent@shop.example', role: 'agent' });
    assert.equal(invited.status, 200);
    assert.match(invited.html, /It was sent by email to <strong>agent@shop\.example<\/strong>/);
    const shown = /<code>(https?:\/\/[^<]+\/app\/invite\/[^<]+)<\/code>/.exec(invited.html)![1]!;

    const mail = mailServer.mails.at(-1)!;
    assert.deepEqual(mail.to, ['agent@shop.example']);
    assert.equal(mail.from, 'team@shop.example');
    assert.match(mail.raw, /Subject: Join Shop on Switchboard/);
    assert.equal(linkIn(mail.raw), shown);
    const agent = new PortalClient(t.url);
    const opened = await agent.get(new URL(shown).pathname);
    assert.equal(opened.status, 200);
    const set = await agent.post(new URL(shown).pathname, { password: 'the agent password here' });
    assert.equal(set.status, 303);

    await owner.get('/app/team');
    const member = await t.gateway.store.db
      .selectFrom('portal_users')
      .select('id')
      .where('email', '=', 'agent@shop.example')
      .executeTakeFirstOrThrow();
    const reset = await owner.post(`/app/team/${member.id}/reset`, {});
    assert.equal(reset.status, 200);
    const resetMail = mailServer.mails.at(-1)!;
    assert.deepEqual(resetMail.to, ['agent@shop.example']);
    assert.match(resetMail.raw, /Subject: Set a new Switchboard password/);
    assert.ok(linkIn(resetMail.raw));
    assert.ok(!logged.includes(SMTP_PASSWORD), 'the SMTP password is in no log line');
  });

  test('a member who forgot their password asks for a link at sign-in; it is mailed to them, and works', async () => {
    const owner = new PortalClient(t.url);
    await owner.signUp('forgetful@shop.example', PASSWORD, 'Forgetful Shop');
    const visitor = new PortalClient(t.url);
    assert.match((await visitor.get('/app/sign-in')).html, /<a href="\/app\/forgot-password">/);
    assert.equal((await visitor.get('/app/forgot-password')).status, 200);
    const before = mailServer.mails.length;
    const asked = await visitor.post('/app/forgot-password', { email: ' Forgetful@Shop.example' });
    assert.equal(asked.status, 200);
    assert.match(
      asked.html,
      /If a member signs in with forgetful@shop\.example, a link to choose a new password/,
    );
    // An email no member has is answered in the same words (and gets no mail: test/unit/password-recovery.test.ts).
    const unknown = await visitor.post('/app/forgot-password', { email: 'nobody@shop.example' });
    assert.equal(unknown.status, 200);
    assert.match(
      unknown.html,
      /If a member signs in with nobody@shop\.example, a link to choose a new password/,
    );
    assert.equal((await visitor.post('/app/forgot-password', { email: 'not an email' })).status, 400);

    const mail = await eventually(() =>
      mailServer.mails.slice(before).find((m) => m.to.includes('forgetful@shop.example')),
    );
    assert.match(mail.raw, /Subject: Set a new Switchboard password/);
    const link = new URL(linkIn(mail.raw)!).pathname;
    assert.equal((await visitor.get(link)).status, 200);
    const set = await visitor.post(link, { password: 'a brand new password' });
    assert.equal(set.status, 303, 'the link sets the password and signs the member in');
    assert.equal((await new PortalClient(t.url).signIn('forgetful@shop.example', PASSWORD)).status, 401);
    assert.equal(
      (await new PortalClient(t.url).signIn('forgetful@shop.example', 'a brand new password')).status,
      303,
    );

    // Two more requests are taken within the hour; the next is refused, saying until when.
    for (let i = 0; i < 2; i++) {
      assert.equal(
        (await visitor.post('/app/forgot-password', { email: 'forgetful@shop.example' })).status,
        200,
      );
    }
    const refused = await visitor.post('/app/forgot-password', { email: 'forgetful@shop.example' });
    assert.equal(refused.status, 429);
    assert.match(
      refused.html,
      /Three links were asked for this email within the hour: ask again after \d\d:\d\d UTC/,
    );
    assert.doesNotMatch(logged, /\/app\/invite\/[\w-]{43}/, 'no link is in the log');
  });

  test('with the mail server gone, the page says so and still shows the link', async () => {
    await mailServer.close();
    const owner = new PortalClient(t.url);
    await owner.signUp('owner2@shop.example', PASSWORD, 'Shop Two');
    await owner.get('/app/team');
    const invited = await owner.post('/app/team', { email: 'late@shop.example', role: 'agent' });
    assert.equal(invited.status, 200);
    assert.match(
      invited.html,
      /The email to late@shop\.example could not be sent \([^)]*\): give them the link yourself/,
    );
    assert.match(invited.html, /<code>https?:\/\/[^<]+\/app\/invite\/[^<]+<\/code>/);
    assert.ok(!logged.includes(SMTP_PASSWORD));
  });
});
