/**
 * Campaigns in the portal over real HTTP (docs/portal.md, "Campaigns"): each wizard step refuses what the
 * domain refuses, at its field, and keeps the answers; the first recipients' messages are previewed with
 * their own values (shown as text, never markup); a tags audience and a CSV audience are made, started and
 * completed with the right counts; a schedule is read in its time zone; pause, resume and cancel (after a
 * confirmation) go through; the recipients are filtered, paged and exported as CSV with the session;
 * another account sees none of it; generated garbage at the wizard is never a 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  addSimulatedNumber,
  call,
  eventually,
  joinSandbox,
  portalAccount,
  startGateway,
  type TestGateway,
} from '../support/gateway.ts';
import { PortalClient, type PortalResponse } from '../support/portal-client.ts';

const PASSWORD = 'a long enough password';
const NUMBER = '14155550123';
const MEMBER = '254712000490';

const fromHtml = (s: string) =>
  s
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/** The answers a step's form carries hidden, as a browser would post them again. */
function hiddenOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    if (m[1] !== '_csrf') fields[m[1]!] = fromHtml(m[2]!);
  }
  return fields;
}

const stepOf = (r: PortalResponse) => /<h2 id="step-heading">Step \d of 6: ([^<]*)</.exec(r.html)?.[1];
const errorAt = (r: PortalResponse, input: string) =>
  fromHtml(new RegExp(`id="f-${input}-error">([^<]*)<`).exec(r.html)?.[1] ?? '');

/** A browser's way through the wizard: each post sends the page's hidden answers and this step's inputs. */
class Wizard {
  last!: PortalResponse;
  readonly client: PortalClient;
  constructor(client: PortalClient) {
    this.client = client;
  }
  async open() {
    this.last = await this.client.get('/app/campaigns/new');
    return this.last;
  }
  async post(fields: Record<string, string>) {
    this.last = await this.client.post('/app/campaigns/new', { ...hiddenOf(this.last.html), ...fields });
    return this.last;
  }
}

interface Account {
  client: PortalClient;
  accountId: string;
  key: string;
  joinCode: string;
}

async function signUp(t: TestGateway, email: string, business: string): Promise<Account> {
  const client = new PortalClient(t.url);
  await client.signUp(email, PASSWORD, business);
  const { accountId, apiKey, joinCode } = await portalAccount(t, email);
  return { client, accountId, key: apiKey, joinCode };
}

async function approvedTemplate(t: TestGateway, a: Account, phone: string, body: unknown) {
  const created = await call(t.url, 'POST', `/api/v1/template/${phone}`, { key: a.key, body });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  await eventually(async () => {
    const list = await call(t.url, 'GET', `/api/v1/template/${phone}`, { key: a.key });
    return list.body.data.data.find((x: any) => x.id === created.body.data.id)?.status === 'APPROVED';
  });
}

const SPRING = {
  name: 'spring_sale',
  language: 'en',
  category: 'MARKETING',
  component: {
    header: { format: 'TEXT', text: 'Spring at {{1}}', example: 'Shop' },
    body: { text: 'Hi {{1}}, take {{2}} off everything this week.', examples: ['Jane', '20%'] },
    footer: { text: 'Reply STOP to opt out' },
  },
};
const MAPPING = {
  header: 'Camp Co',
  'source-1': 'name',
  'fallback-1': 'there',
  'source-2': 'attribute',
  'value-2': 'discount',
  'fallback-2': '10%',
};

describe('campaigns in the portal', () => {
  let t: TestGateway;
  let a: Account;

  before(async () => {
    t = await startGateway();
    a = await signUp(t, 'campaigns@example.org', 'Camp Co');
    await addSimulatedNumber(t, a.accountId, NUMBER);
    await approvedTemplate(t, a, NUMBER, SPRING);
    const people = [
      { phone: '+254712000401', name: 'Amina', attributes: { discount: '30%' } },
      { phone: '+254712000402', name: '<b>Ben</b>' },
      { phone: '+254712000403' },
    ];
    for (const person of people) {
      const r = await call(t.url, 'POST', '/api/v1/contacts', {
        key: a.key,
        body: { ...person, tags: ['spring'] },
      });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
  });
  after(() => t.close());

  test('the list starts empty, in the navigation, with a way to a new campaign', async () => {
    const list = await a.client.get('/app/campaigns');
    assert.equal(list.status, 200);
    assert.match(list.html, /aria-current="page">Campaigns</);
    assert.match(list.html, /No campaigns yet/);
    assert.match(list.html, /href="\/app\/campaigns\/new">New campaign</);
  });

  test('each step refuses at its field with the domain words, and keeps the answers', async () => {
    const w = new Wizard(a.client);
    assert.equal(stepOf(await w.open()), 'Name and number');
    let r = await w.post({ name: ' ', from: NUMBER, go: 'next' });
    assert.equal(r.status, 400);
    assert.equal(errorAt(r, 'name'), '`name` must be 1 to 200 characters');
    assert.match(r.html, new RegExp(`<option value="${NUMBER}" selected>`));
    r = await w.post({ name: 'Checks', from: NUMBER, go: 'next' });
    assert.equal(stepOf(r), 'Template');
    assert.match(r.html, /Spring at Shop<\/p>Hi Jane, take 20% off everything this week\./);
    r = await w.post({ go: 'next' });
    assert.equal(errorAt(r, 'template'), 'Choose one of the approved templates of this number.');
    r = await w.post({ template: 'spring_sale@en', go: 'next' });
    assert.equal(stepOf(r), 'Audience');
    assert.match(r.html, /Tags of your contacts, with how many have each: <code>spring<\/code> \(3\)\./);
    r = await w.post({ audience: 'tags', tags: ' , ', go: 'next' });
    assert.equal(errorAt(r, 'tags'), '`audience.tags` must hold 1 to 20 tags');
    r = await w.post({ audience: 'csv', csv: 'name,city\nAmina,Nairobi\n', go: 'next' });
    assert.match(errorAt(r, 'csv'), /first line must name the columns, with `phone` or `user_id`/);
    assert.match(r.html, /name,city\nAmina,Nairobi/, 'the pasted file is kept');
    r = await w.post({ audience: 'tags', tags: 'spring', go: 'count' });
    assert.match(r.html, /id="audience-count">3 contacts have these tags\./);
    r = await w.post({ audience: 'tags', tags: 'spring', go: 'next' });
    assert.equal(stepOf(r), 'Placeholders');
    r = await w.post({ ...MAPPING, header: '', 'source-2': 'value', 'value-2': '', go: 'next' });
    assert.equal(r.status, 400);
    assert.equal(errorAt(r, 'value-2'), 'The value of {{2}} must be 1 to 1024 characters');
    r = await w.post({ ...MAPPING, header: '', go: 'next' });
    assert.equal(
      errorAt(r, 'header'),
      "Enter the header's value: this template's header has a variable ({{1}}).",
    );
    r = await w.post({ ...MAPPING, go: 'back' });
    assert.equal(stepOf(r), 'Audience');
    assert.match(r.html, /name="tags" type="text" value="spring"/, 'going back keeps the answer');
    r = await w.post({ audience: 'tags', tags: 'spring', go: 'next' });
    assert.match(r.html, /name="value-2" type="text" value="discount"/, 'and the later answers too');
    r = await w.post({ ...MAPPING, go: 'next' });
    assert.equal(stepOf(r), 'Schedule');
    r = await w.post({ when: 'later', startAt: '2020-01-01T09:00', timeZone: 'Europe/Paris', go: 'next' });
    assert.equal(errorAt(r, 'startAt'), '`startAt` must not be in the past');
    r = await w.post({ when: 'later', startAt: '2099-01-01T09:00', timeZone: 'Mars/Olympus', go: 'next' });
    assert.equal(errorAt(r, 'timeZone'), '`timeZone` must be an IANA time zone such as Europe/Paris');
    // A hidden answer changed on the way is refused at its own step.
    r = await a.client.post('/app/campaigns/new', {
      ...hiddenOf(r.html),
      from: '+15550000000',
      step: 'review',
      go: 'start',
    });
    assert.equal(stepOf(r), 'Name and number');
    assert.ok(errorAt(r, 'from'));
    assert.equal((await t.gateway.repos.campaigns.list(a.accountId, { offset: 0, limit: 10 })).total, 0);
  });

  test('a tags campaign: its first messages previewed, then made, started and completed with its counts', async () => {
    const w = new Wizard(a.client);
    await w.open();
    await w.post({ name: 'Spring <sale>', from: NUMBER, go: 'next' });
    await w.post({ template: 'spring_sale@en', go: 'next' });
    await w.post({ audience: 'tags', tags: 'spring', go: 'next' });
    let r = await w.post({ ...MAPPING, go: 'preview' });
    assert.match(
      r.html,
      /To \+254712000401<\/strong><\/p><div class="preview"><p class="header">Spring at Camp Co<\/p>Hi Amina, take 30% off/,
    );
    assert.match(r.html, /Hi &lt;b&gt;Ben&lt;\/b&gt;, take 10% off/);
    assert.match(r.html, /Hi there, take 10% off/);
    assert.doesNotMatch(r.html, /<b>Ben/);
    await w.post({ ...MAPPING, go: 'next' });
    r = await w.post({ when: 'now', go: 'next' });
    assert.equal(stepOf(r), 'Review');
    assert.match(r.html, /Contacts tagged spring: 3 contacts/);
    assert.match(r.html, /\{\{2\}\}: the contact attribute &quot;discount&quot;, else &quot;10%&quot;/);
    const created = await w.post({ go: 'start' });
    assert.equal(created.status, 303);
    const id = /^\/app\/campaigns\/(cmp_\w+)\?notice=campaign-started$/.exec(created.location ?? '')?.[1];
    assert.ok(id, created.location ?? created.html);
    const progress = await eventually(async () => {
      const p = JSON.parse((await a.client.get(`/app/campaigns/${id}/progress`)).html);
      return p.status === 'COMPLETED' && p.counts.read === 3 ? p : undefined;
    });
    assert.deepEqual(progress.counts, {
      ...progress.counts,
      total: 3,
      queued: 0,
      sent: 3,
      delivered: 3,
      failed: 0,
      skipped: 0,
      handled: 3,
    });
    assert.equal(progress.live, false);
    const detail = await a.client.get(`/app/campaigns/${id}`);
    assert.match(detail.html, /<h1>Spring &lt;sale&gt;<\/h1>/);
    assert.match(detail.html, /badge-completed">COMPLETED</);
    assert.match(detail.html, /<progress id="campaign-progress" max="3" value="3"/);
    assert.match(
      detail.html,
      /<desc id="chart-desc" data-chart-words>Queued 0, Sent 3, Delivered 3, Read 3, Replied 0, Failed 0, Skipped 0, of 3 recipients\.<\/desc>/,
    );
    assert.doesNotMatch(detail.html, /data-live/);
    // Statuses over time: on the page, and as the fragment the page script fetches while it runs.
    const overTime =
      /<desc id="timeline-desc">From \d\d:\d\d:\d\d to \d\d:\d\d:\d\d UTC: sent 3, delivered 3, read 3, failed 0\.<\/desc>/;
    assert.match(detail.html, overTime);
    const fragment = await a.client.get(`/app/campaigns/${id}/timeline`);
    assert.equal(fragment.status, 200);
    assert.match(fragment.html, /^<figure class="chart timeline">/);
    assert.match(fragment.html, overTime);
    assert.equal([...fragment.html.matchAll(/<polyline points="[\d, ]+" class="timeline-line/g)].length, 4);
    assert.equal([...detail.html.matchAll(/badge-read">read</g)].length, 3);
    const list = await a.client.get('/app/campaigns');
    assert.match(list.html, /3 of 3 sent · 3 delivered · 3 read · 0 failed · 0 left out/);
    const dashboard = await a.client.get('/app/dashboard');
    assert.match(
      dashboard.html,
      new RegExp(
        `<a href="/app/campaigns/${id}">Spring &lt;sale&gt;</a> <span class="badge badge-completed">COMPLETED</span> <span class="hint">3 of 3 sent`,
      ),
      'the dashboard lists it among the latest campaigns',
    );
    const csv = await a.client.get(`/app/campaigns/${id}/recipients.csv`);
    assert.equal(csv.status, 200);
    const lines = csv.html.trim().split('\n');
    assert.equal(lines[0], 'seq,to,contactId,line,status,reason,replied,messageId,sentAt');
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',').slice(0, 2).concat(l.split(',')[4]!)),
      [
        ['0', '+254712000401', 'read'],
        ['1', '+254712000402', 'read'],
        ['2', '+254712000403', 'read'],
      ],
    );
  });

  test('a column the file does not have is refused at its placeholder; an empty audience is not started', async () => {
    const w = new Wizard(a.client);
    await w.open();
    await w.post({ name: 'Typo', from: NUMBER, go: 'next' });
    await w.post({ template: 'spring_sale@en', go: 'next' });
    let r = await w.post({ audience: 'csv', csv: 'phone,name,order\n+254712000401,Amina,A1\n', go: 'next' });
    assert.equal(stepOf(r), 'Placeholders');
    r = await w.post({ ...MAPPING, 'source-2': 'column', 'value-2': 'ordr', 'fallback-2': '', go: 'next' });
    assert.equal(r.status, 400);
    assert.equal(
      errorAt(r, 'value-2'),
      'The file has no column "ordr": its columns are phone, name, order. Choose one of them, or give a fallback.',
    );

    const empty = new Wizard(a.client);
    await empty.open();
    await empty.post({ name: 'Nobody', from: NUMBER, go: 'next' });
    await empty.post({ template: 'spring_sale@en', go: 'next' });
    await empty.post({ audience: 'tags', tags: 'no-one-has-this', go: 'next' });
    await empty.post({ ...MAPPING, go: 'next' });
    r = await empty.post({ when: 'now', go: 'next' });
    assert.equal(stepOf(r), 'Review');
    r = await empty.post({ go: 'start' });
    assert.equal(r.status, 400);
    assert.match(r.html, /The audience is empty: nobody would be sent to\./);
    const made = await t.gateway.repos.campaigns.list(a.accountId, { offset: 0, limit: 50 });
    assert.ok(!made.campaigns.some((c) => c.name === 'Nobody'), 'nothing was made');
  });

  test('from the sandbox, the preview says which recipients have not joined it', async () => {
    await joinSandbox(t, { accountId: a.accountId, apiKey: a.key, joinCode: a.joinCode }, MEMBER);
    const sandbox = t.gateway.config.sandboxNumber;
    await approvedTemplate(t, a, sandbox, {
      name: 'joined_check',
      language: 'en',
      category: 'UTILITY',
      component: { body: { text: 'Hello {{1}}, your order is ready.', examples: ['Jane'] } },
    });
    const w = new Wizard(a.client);
    await w.open();
    await w.post({ name: 'Joined?', from: sandbox, go: 'next' });
    await w.post({ template: 'joined_check@en', go: 'next' });
    await w.post({
      audience: 'csv',
      csv: `phone,name\n+${MEMBER},Member\n+254712000492,Stranger\n`,
      go: 'next',
    });
    const r = await w.post({ 'source-1': 'name', go: 'preview' });
    const previews = [...r.html.matchAll(/<li><p><strong>To ([^<]+)<\/strong><\/p>([\s\S]*?)<\/li>/g)];
    const warned = previews.map(([, to, body]) => [to, /Has not joined your sandbox/.test(body!)]);
    assert.deepEqual(warned, [
      [`+${MEMBER}`, false],
      ['+254712000492', true],
    ]);
  });

  test('a CSV campaign on the sandbox: rows left out are counted, filtered and exported by reason', async () => {
    await joinSandbox(t, { accountId: a.accountId, apiKey: a.key, joinCode: a.joinCode }, MEMBER);
    const sandbox = t.gateway.config.sandboxNumber;
    await approvedTemplate(t, a, sandbox, {
      name: 'see_you',
      language: 'en',
      category: 'UTILITY',
      component: { body: { text: 'Hello {{1}}, see you in {{2}}.', examples: ['Jane', 'Nairobi'] } },
    });
    const csv = `phone,name,city\n+${MEMBER},<i>Wanjiru</i>,Nairobi\n+254712000491,Otieno,\n=cmd(),Bad,Kisumu\n${MEMBER},Again,Mombasa\n`;
    const w = new Wizard(a.client);
    await w.open();
    await w.post({ name: 'Cities', from: sandbox, go: 'next' });
    await w.post({ template: 'see_you@en', go: 'next' });
    let r = await w.post({ audience: 'csv', csv, go: 'next' });
    assert.equal(stepOf(r), 'Placeholders');
    assert.match(r.html, /Columns of the file: phone, name, city\./);
    r = await w.post({ 'source-1': 'name', 'source-2': 'column', 'value-2': 'city', go: 'preview' });
    assert.match(r.html, /Hello &lt;i&gt;Wanjiru&lt;\/i&gt;, see you in Nairobi\./);
    assert.match(r.html, /Left out \(missing_value\): placeholder \{\{2\}\}/);
    assert.match(
      r.html,
      /To =cmd\(\)<\/strong><\/p><p><span class="badge badge-skipped">skipped<\/span> Left out \(invalid_number\)/,
    );
    await w.post({ 'source-1': 'name', 'source-2': 'column', 'value-2': 'city', go: 'next' });
    await w.post({ when: 'now', go: 'next' });
    const created = await w.post({ go: 'start' });
    const id = /cmp_\w+/.exec(created.location ?? '')?.[0];
    assert.ok(id, created.html);
    const progress = await eventually(async () => {
      const p = JSON.parse((await a.client.get(`/app/campaigns/${id}/progress`)).html);
      return p.status === 'COMPLETED' && p.counts.delivered === 1 ? p : undefined;
    });
    assert.deepEqual([progress.counts.total, progress.counts.sent, progress.counts.skipped], [4, 1, 3]);
    assert.deepEqual(
      [progress.counts.invalid_number, progress.counts.duplicate, progress.counts.missing_value],
      [1, 1, 1],
    );
    const skipped = await a.client.get(`/app/campaigns/${id}?status=skipped`);
    assert.match(skipped.html, /Page 1 of 1 \(3 recipients\)/);
    assert.match(
      skipped.html,
      /Left out: <span data-count="invalid_number">1<\/span> invalid number, <span data-count="duplicate">1<\/span> duplicate, <span data-count="missing_value">1<\/span> missing value\./,
    );
    assert.match(skipped.html, /href="\/app\/campaigns\/cmp_\w+\/recipients\.csv\?status=skipped"/);
    const exported = await a.client.get(`/app/campaigns/${id}/recipients.csv?status=skipped`);
    assert.deepEqual(
      exported.html
        .trim()
        .split('\n')
        .slice(1)
        .map((l) => l.split(',').slice(1, 6)),
      [
        ['+254712000491', '', '3', 'skipped', 'missing_value'],
        ["'=cmd()", '', '4', 'skipped', 'invalid_number'],
        [`+${MEMBER}`, '', '5', 'skipped', 'duplicate'],
      ],
      'a cell that would be a formula is written as text',
    );
    const bad = await a.client.get(`/app/campaigns/${id}?status=nonsense`);
    assert.equal(bad.status, 400);
    assert.match(errorAt(bad, 'status'), /Status must be one of queued, sent/);
  });

  test('a template whose link button ends with {{1}} asks for the end of the link, and sends it', async () => {
    await approvedTemplate(t, a, NUMBER, {
      name: 'track_order',
      language: 'en',
      category: 'UTILITY',
      component: {
        body: { text: 'Your order {{1}} is on its way to you today.', examples: ['A1'] },
        buttons: [
          {
            type: 'URL',
            text: 'Track',
            url: 'https://shop.example.com/t/{{1}}',
            example: 'https://shop.example.com/t/A1',
          },
        ],
      },
    });
    const w = new Wizard(a.client);
    await w.open();
    await w.post({ name: 'Tracking', from: NUMBER, go: 'next' });
    await w.post({ template: 'track_order@en', go: 'next' });
    let r = await w.post({ audience: 'csv', csv: 'phone,order\n+254712000401,A1\n', go: 'next' });
    assert.match(r.html, /<label for="f-button-0">End of the link of the button &quot;Track&quot;<\/label>/);
    const mapping = { 'source-1': 'column', 'value-1': 'order' };
    r = await w.post({ ...mapping, go: 'next' });
    assert.equal(r.status, 400);
    assert.equal(
      errorAt(r, 'button-0'),
      'Enter the end of the link of the button "Track": it opens https://shop.example.com/t/{{1}}, with {{1}} replaced by what you enter.',
    );
    r = await w.post({ ...mapping, 'button-0': 'spring-2026', go: 'next' });
    assert.equal(stepOf(r), 'Schedule');
    await w.post({ when: 'now', go: 'next' });
    const created = await w.post({ go: 'start' });
    const id = /^\/app\/campaigns\/(cmp_\w+)/.exec(created.location ?? '')?.[1];
    assert.ok(id, created.location ?? created.html);
    const sent = await eventually(async () => {
      const list = await call(t.url, 'GET', `/api/v1/campaigns/${id}/recipients`, { key: a.key });
      const one = list.body.data.recipients[0];
      return one?.status === 'read' && one;
    });
    const message = await t.gateway.repos.messages.findByClientId(a.accountId, sent.messageId);
    assert.match(String(message?.content), /"parameters":\[\{"type":"text","text":"spring-2026"\}\]/);
  });

  test('a draft, then scheduled in its time zone, paused, resumed and cancelled after a confirmation', async () => {
    const w = new Wizard(a.client);
    await w.open();
    await w.post({ name: 'Later', from: NUMBER, go: 'next' });
    await w.post({ template: 'spring_sale@en', go: 'next' });
    await w.post({ audience: 'tags', tags: 'spring', go: 'next' });
    await w.post({ ...MAPPING, go: 'next' });
    const review = await w.post({
      when: 'later',
      startAt: '2099-06-01T09:30',
      timeZone: 'Europe/Paris',
      go: 'next',
    });
    assert.match(review.html, /2099-06-01 09:30 Europe\/Paris \(<time datetime="2099-06-01T07:30:00.000Z">/);
    const saved = await w.post({ go: 'draft' });
    assert.match(saved.location ?? '', /^\/app\/campaigns\/cmp_\w+\?notice=campaign-saved$/);
    const path = saved.location!.split('?')[0]!;
    let page = await a.client.get(saved.location!);
    assert.match(page.html, /badge-draft">DRAFT</);
    assert.match(page.html, /The audience is read when the campaign starts\./);
    const act = async (action: string) => {
      await a.client.get(path);
      return a.client.post(`${path}/${action}`, {});
    };
    let moved = await act('start');
    assert.equal(moved.location, `${path}?notice=campaign-scheduled`);
    page = await a.client.get(moved.location!);
    assert.match(
      page.html,
      /badge-scheduled">SCHEDULED<\/span> Starts by itself at 2099-06-01 09:30 Europe\/Paris/,
    );
    assert.match(page.html, /data-status="SCHEDULED" data-live/);
    assert.equal(JSON.parse((await a.client.get(`${path}/progress`)).html).live, true);
    moved = await act('pause');
    assert.equal(moved.location, `${path}?notice=campaign-paused`);
    assert.match(
      (await a.client.get(path)).html,
      /badge-paused">PAUSED<\/span> Paused: nothing more is sent/,
    );
    moved = await act('resume');
    assert.match((await a.client.get(path)).html, /badge-scheduled">SCHEDULED</);
    const confirm = await a.client.get(`${path}/cancel`);
    assert.match(confirm.html, /This cannot be undone\./);
    const cancelled = await a.client.post(`${path}/cancel`, {});
    assert.equal(cancelled.location, `${path}?notice=campaign-cancelled`);
    page = await a.client.get(path);
    assert.match(page.html, /badge-cancelled">CANCELLED</);
    assert.doesNotMatch(page.html, /Cancel campaign/);
    const refused = await act('pause');
    assert.equal(refused.status, 409);
    assert.match(
      refused.html,
      /role="alert"><p>campaign cmp_\w+ is CANCELLED: only a campaign that is RUNNING or SCHEDULED can be paused/,
    );
  });

  test('another account sees none of it; without a session or a token nothing is done', async () => {
    const [campaign] = (await t.gateway.repos.campaigns.list(a.accountId, { offset: 0, limit: 1 })).campaigns;
    const path = `/app/campaigns/${campaign!.id}`;
    const other = await signUp(t, 'other-campaigns@example.org', 'Other Co');
    assert.match((await other.client.get('/app/campaigns')).html, /No campaigns yet/);
    for (const suffix of ['', '/progress', '/timeline', '/recipients.csv', '/cancel']) {
      assert.equal((await other.client.get(path + suffix)).status, 404, suffix);
    }
    await other.client.get('/app/campaigns');
    assert.equal((await other.client.post(`${path}/cancel`, {})).status, 404);
    const anonymous = new PortalClient(t.url);
    const redirected = await anonymous.get(`${path}/recipients.csv`);
    assert.equal(redirected.status, 303);
    assert.match(redirected.location ?? '', /^\/app\/sign-in\?next=/);
    const noToken = await a.client.post(`${path}/pause`, {}, { csrf: false });
    assert.equal(noToken.status, 403);
  });

  test('generated garbage at the wizard is a page or a refusal, never a 5xx', async () => {
    const names = [
      'step',
      'go',
      'name',
      'from',
      'template',
      'audience',
      'tags',
      'csv',
      'header',
      'source-1',
      'value-1',
      'fallback-1',
      'when',
      'startAt',
      'timeZone',
    ];
    const garbage = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom(
        '',
        'review',
        'start',
        'next',
        'csv',
        NUMBER,
        'spring_sale@en',
        'phone\n=1',
        '"',
        '💥'.repeat(300),
      ),
    );
    await a.client.get('/app/campaigns/new');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...names), garbage), { maxLength: 8 }),
        async (pairs) => {
          const fields: Record<string, string[]> = {};
          for (const [k, v] of pairs) fields[k] = [...(fields[k] ?? []), v];
          const r = await a.client.post('/app/campaigns/new', fields);
          assert.ok(r.status < 500, `${r.status} for ${JSON.stringify(fields)}`);
        },
      ),
      { numRuns: 60 },
    );
  });
});
