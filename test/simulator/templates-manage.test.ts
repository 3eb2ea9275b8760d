/**
 * Managing simulated templates: edit rules (docs/cloud-api.md §4.6), deletion by name and by hsm_id, and the
 * list's filters and cursor paging (docs/cloud-api.md §4.5). The simulator's clock (`now`) is moved to cross the
 * 24-hour and 30-day edit limits.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  BUSINESS,
  eventually,
  graphSend,
  type Harness,
  request,
  startHarness,
  TOKEN,
  VERSION,
} from './harness.ts';

const HOUR = 60 * 60_000;

function body(name: string, text: string, extra: Record<string, unknown> = {}) {
  return { name, language: 'en', category: 'MARKETING', components: [{ type: 'BODY', text }], ...extra };
}

describe('simulated templates: edit, delete, list', () => {
  let h: Harness;
  let clock = Date.now();
  before(async () => {
    // Reviews wait for the simulator's control (reviewed() below): a template is PENDING until then.
    h = await startHarness({ templateReviewDelayMs: 600_000, now: () => clock });
  });
  after(() => h.close());

  const templates = `${VERSION}/${BUSINESS}/message_templates`;
  const create = (b: unknown) => request(`${h.base}/${templates}`, { body: b, token: TOKEN });
  const edit = (id: string, b: unknown) => request(`${h.base}/${VERSION}/${id}`, { body: b, token: TOKEN });
  const get = (id: string) => request(`${h.base}/${VERSION}/${id}`, { token: TOKEN });

  /** Decides the pending review now, waits until its webhooks number `count`; answers the last event. */
  async function reviewed(id: string, count: number): Promise<string> {
    const decided = await request(`${h.base}/templates/${id}/review`, { method: 'POST', body: {} });
    assert.ok(decided.status === 200 || decided.status === 409, JSON.stringify(decided.body));
    const events = await eventually(() => {
      const values = h.receiver.received
        .filter((hook) => hook.json?.entry?.[0]?.changes?.[0]?.field === 'message_template_status_update')
        .map((hook) => hook.json.entry[0].changes[0].value)
        .filter((value) => String(value.message_template_id) === id);
      return values.length >= count ? values : undefined;
    });
    return events[count - 1].event;
  }

  async function createApproved(name: string, text = 'Thanks for shopping with us today.') {
    const r = await create(body(name, text));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(await reviewed(r.body.id, 1), 'APPROVED');
    return r.body.id as string;
  }

  const newText = (n: number) => ({
    components: [{ type: 'BODY', text: `Version ${n} of our friendly note.` }],
  });

  test('a PENDING template cannot be edited', async () => {
    const r = await create(body('edit_pending', 'Our store opens at nine tomorrow.'));
    const refused = await edit(r.body.id, newText(1));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, 100);
    assert.match(refused.body.error.error_user_msg, /is PENDING; only APPROVED, REJECTED or PAUSED/);
  });

  test('an APPROVED template: one edit per 24 h, back to PENDING and re-reviewed', async () => {
    const id = await createApproved('edit_daily');
    const first = await edit(id, newText(1));
    assert.deepEqual(first.body, { success: true });
    assert.equal((await get(id)).body.status, 'PENDING');
    assert.equal(await reviewed(id, 2), 'APPROVED');
    assert.deepEqual((await get(id)).body.components, newText(1).components);

    clock += 23 * HOUR;
    const second = await edit(id, newText(2));
    assert.equal(second.status, 400);
    assert.match(second.body.error.error_user_msg, /edited in the last 24 hours/);
    clock += 2 * HOUR;
    assert.deepEqual((await edit(id, newText(3))).body, { success: true });
    assert.equal(await reviewed(id, 3), 'APPROVED');
  });

  test('an APPROVED template: at most 10 edits per 30 days', async () => {
    const id = await createApproved('edit_monthly');
    for (let n = 1; n <= 10; n++) {
      clock += 25 * HOUR;
      assert.deepEqual((await edit(id, newText(n))).body, { success: true }, `edit ${n}`);
      assert.equal(await reviewed(id, n + 1), 'APPROVED');
    }
    clock += 25 * HOUR;
    const eleventh = await edit(id, newText(11));
    assert.equal(eleventh.status, 400);
    assert.match(eleventh.body.error.error_user_msg, /edited 10 times in the last 30 days/);
  });

  test('an approved template keeps its category, name and language', async () => {
    const id = await createApproved('edit_fixed');
    const category = await edit(id, { category: 'UTILITY' });
    assert.match(category.body.error.error_user_msg, /'category' of an approved template cannot change/);
    const name = await edit(id, { name: 'other_name', ...newText(1) });
    assert.match(name.body.error.error_user_msg, /'name' cannot be changed/);
    const language = await edit(id, { language: 'fr', ...newText(1) });
    assert.match(language.body.error.error_user_msg, /'language' cannot be changed/);
    const invalid = await edit(id, { components: [{ type: 'FOOTER', text: 'no body' }] });
    assert.match(invalid.body.error.error_user_msg, /must include a BODY/);
    assert.equal((await get(id)).body.status, 'APPROVED', 'a refused edit changes nothing');
  });

  test('a REJECTED template can be edited again and again, also its category', async () => {
    const created = await create({
      ...body('edit_rejected', 'x'),
      components: [
        { type: 'BODY', text: 'Your {{1}}{{2}} is waiting for you.', example: { body_text: [['A', 'B']] } },
      ],
    });
    const id = created.body.id;
    assert.equal(await reviewed(id, 1), 'REJECTED');
    for (let n = 2; n <= 4; n++) {
      const again = await edit(id, {
        components: [
          {
            type: 'BODY',
            text: `Your {{1}}{{2}} is waiting, try ${n}.`,
            example: { body_text: [['A', 'B']] },
          },
        ],
      });
      assert.deepEqual(again.body, { success: true });
      assert.equal(await reviewed(id, n), 'REJECTED');
    }
    assert.deepEqual((await edit(id, { category: 'UTILITY', ...newText(5) })).body, { success: true });
    assert.equal(await reviewed(id, 5), 'APPROVED');
    assert.equal((await get(id)).body.category, 'UTILITY');
  });

  test('delete by hsm_id removes one language; by name removes every language', async () => {
    const en = await createApproved('goodbye_note');
    const fr = await create({
      ...body('goodbye_note', 'Merci et à bientôt dans notre magasin.'),
      language: 'fr',
    });
    assert.equal(await reviewed(fr.body.id, 1), 'APPROVED');
    const del = (query: string) =>
      request(`${h.base}/${templates}?${query}`, { method: 'DELETE', token: TOKEN });

    assert.deepEqual((await del(`name=goodbye_note&hsm_id=${fr.body.id}`)).body, { success: true });
    assert.equal((await get(fr.body.id)).body.error.error_subcode, 33, 'the French one is gone');
    assert.equal((await get(en)).body.status, 'APPROVED', 'the English one stays');
    const gone = await graphSend(h, {
      type: 'template',
      template: { name: 'goodbye_note', language: { code: 'fr' } },
    });
    assert.equal(gone.body.error.code, 132001);

    await create({ ...body('goodbye_note', 'Tot ziens en graag tot de volgende keer.'), language: 'nl' });
    assert.deepEqual((await del('name=goodbye_note')).body, { success: true });
    const left = await request(`${h.base}/${templates}?name=goodbye_note`, { token: TOKEN });
    assert.deepEqual(left.body.data, []);

    const unknown = await del('name=goodbye_note');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 100);
    assert.match(unknown.body.error.error_user_msg, /goodbye_note was not found/);
    const wrongId = await del(`name=edit_fixed&hsm_id=${en}`);
    assert.match(wrongId.body.error.error_user_msg, /edit_fixed with hsm_id .* was not found/);
  });

  test('the name of a deleted approved template is held for 30 days (2388023)', async () => {
    await createApproved('held_name');
    await request(`${h.base}/${templates}?name=held_name`, { method: 'DELETE', token: TOKEN });
    const again = await create(body('held_name', 'Thanks for shopping with us today.'));
    assert.equal(again.status, 400);
    assert.equal(again.body.error.error_subcode, 2388023);
    clock += 31 * 24 * HOUR;
    assert.equal((await create(body('held_name', 'Thanks for shopping with us today.'))).status, 200);
  });

  test('the list filters by status, language and name, and pages with cursors', async () => {
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await createApproved(`paged_${n}`));
    const seen: string[] = [];
    let url: string | undefined =
      `${h.base}/${templates}?status=APPROVED&language=en&limit=2&fields=name,status`;
    let pages = 0;
    while (url) {
      const page = await request(url, { token: TOKEN });
      assert.equal(page.status, 200);
      assert.ok(page.body.data.length <= 2);
      for (const t of page.body.data) {
        assert.deepEqual(Object.keys(t).sort(), ['id', 'name', 'status']);
        assert.equal(t.status, 'APPROVED');
        seen.push(t.id);
      }
      assert.equal(typeof page.body.paging.cursors.after, 'string');
      url = page.body.paging.next;
      pages++;
    }
    for (const id of ids) assert.ok(seen.includes(id), `${id} is listed`);
    assert.equal(new Set(seen).size, seen.length, 'no template is listed twice');
    assert.equal(pages, Math.ceil(seen.length / 2));

    const one = await request(`${h.base}/${templates}?name=paged_3`, { token: TOKEN });
    assert.deepEqual(
      one.body.data.map((t: { id: string }) => t.id),
      [ids[3]],
    );
    const second = await request(`${h.base}/${templates}?name=paged_3&status=REJECTED`, { token: TOKEN });
    assert.deepEqual(second.body.data, []);
    const badCursor = await request(`${h.base}/${templates}?after=nonsense`, { token: TOKEN });
    assert.equal(badCursor.body.error.code, 100);
  });
});
